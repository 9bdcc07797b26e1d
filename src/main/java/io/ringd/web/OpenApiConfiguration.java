package io.ringd.web;

import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.GetMapping;

import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.enums.SecuritySchemeType;
import io.swagger.v3.oas.annotations.info.Info;
import io.swagger.v3.oas.annotations.security.SecurityScheme;
import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.BooleanSchema;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.HeaderParameter;
import io.swagger.v3.oas.models.responses.ApiResponse;

/**
 * The API description's header, the admin bearer token scheme, the ring
 * headers every operation has ({@code X-Ring-Version} both ways,
 * {@code X-Ring-Stale}, and {@code ETag} on {@code GET /ring}), and the
 * problem-detail body of every error answer, so controllers declare an error
 * by its status and description alone.
 */
@Configuration(proxyBeanMethods = false)
@OpenAPIDefinition(info = @Info(title = "ringd", version = "1",
        description = "A consistent-hash ring served over HTTP. Every ring answer carries X-Ring-Version; "
                + "errors are RFC 9457 problem details (application/problem+json)."))
@SecurityScheme(name = "admin", type = SecuritySchemeType.HTTP, scheme = "bearer",
        description = "The admin token (ringd.admin.token / RINGD_ADMIN_TOKEN, or <data-dir>/admin-token)")
class OpenApiConfiguration {

    static final String PROBLEM_SCHEMA = "ProblemDetail";

    @Bean
    OpenApiCustomizer problemSchema() {
        return openApi -> ModelConverters.getInstance().read(ProblemDetail.class)
                .forEach((name, schema) -> openApi.getComponents().addSchemas(name, schema));
    }

    @Bean
    OperationCustomizer ringHeaders() {
        return (operation, handler) -> {
            operation.addParametersItem(new HeaderParameter().name(RingHeaders.VERSION).required(false)
                    .description("The ring version the client holds; when older than the server's, the answer "
                            + "adds X-Ring-Stale: true and the request counts as stale")
                    .schema(new IntegerSchema().format("int64").minimum(java.math.BigDecimal.ZERO)).example(7));
            boolean ring = handler.hasMethodAnnotation(GetMapping.class)
                    && java.util.Arrays.asList(handler.getMethodAnnotation(GetMapping.class).value()).contains("/ring");
            if (operation.getResponses() != null) {
                operation.getResponses().forEach((code, response) -> addHeaders(code, response, ring));
            }
            return operation;
        };
    }

    private static void addHeaders(String code, ApiResponse response, boolean ring) {
        if (code.startsWith("4") || code.startsWith("5")) {
            response.setContent(new Content().addMediaType(ApiDocs.PROBLEM, new MediaType()
                    .schema(new Schema<>().$ref("#/components/schemas/" + PROBLEM_SCHEMA))));
        }
        response.addHeaderObject(RingHeaders.VERSION, new Header().description("The server's current ring version")
                .schema(new IntegerSchema().format("int64")).example(8));
        if (code.startsWith("2") || code.equals("304")) {
            response.addHeaderObject(RingHeaders.STALE, new Header()
                    .description("true when the X-Ring-Version sent is older than the server's")
                    .schema(new BooleanSchema()).example(true));
        }
        if (ring && (code.equals("200") || code.equals("304"))) {
            response.addHeaderObject("ETag", new Header().description("The ring version, quoted")
                    .schema(new StringSchema()).example("\"8\""));
        }
    }
}
