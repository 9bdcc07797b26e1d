package io.ringd.web;

import java.math.BigDecimal;
import java.util.List;

import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.ringd.web.problem.ProblemSchema;
import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.enums.SecuritySchemeType;
import io.swagger.v3.oas.annotations.info.Info;
import io.swagger.v3.oas.annotations.security.SecurityScheme;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.BooleanSchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.HeaderParameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.servers.Server;
import io.swagger.v3.oas.models.servers.ServerVariable;
import io.swagger.v3.oas.models.servers.ServerVariables;

/**
 * The API description's header and what every operation shares, derived
 * from what each handler declares rather than from lists of routes: the
 * ring headers on {@link RingApi} operations ({@code X-Ring-Version} both
 * ways, {@code X-Ring-Stale}), the admin token on {@link AdminOnly} ones, the
 * problem-detail body of every error answer, and no body on a 304. So a
 * controller declares an error by its status and description alone.
 */
@Configuration(proxyBeanMethods = false)
@OpenAPIDefinition(info = @Info(title = "ringd", version = "1",
        description = "A consistent-hash ring served over HTTP. One ringd serves many rings: the paths as listed "
                + "are the ring default, and every one of them (but /rings) is also served under /rings/{ring} for "
                + "the ring of that name (pick the second server). Every ring answer carries X-Ring-Version and "
                + "X-Ring-Name; "
                + "errors are RFC 9457 problem details (application/problem+json). Input is read strictly: "
                + "a query parameter a call does not take, an unknown or repeated JSON field, a number too large "
                + "for its field, NaN, Infinity, or a body that is not strict UTF-8 is refused with 400 naming "
                + "the parameter or field; a body Content-Encoding is 415; an Accept without JSON is 406."))
@SecurityScheme(name = OpenApiConfiguration.ADMIN_SCHEME, type = SecuritySchemeType.HTTP, scheme = "bearer",
        description = "The admin token (ringd.admin.token / RINGD_ADMIN_TOKEN, or <data-dir>/admin-token)")
class OpenApiConfiguration {

    static final String ADMIN_SCHEME = "admin";

    /**
     * Two servers: the ring {@code default} at the paths as listed, and any named ring under
     * {@code /rings/{ring}} (docs/ring.md section 22), so Swagger UI can call a ring's paths by picking the second
     * server and naming the ring. The calls of the {@code rings} tag are the instance's own: first server only.
     */
    @Bean
    OpenApiCustomizer ringServers() {
        return openApi -> openApi.servers(List.of(
                new Server().url("/").description("The ring default (and the instance's own calls: /rings)"),
                new Server().url("/rings/{ring}").description("A named ring: every call but those of /rings")
                        .variables(new ServerVariables().addServerVariable("ring", new ServerVariable()
                                ._default("sessions").description("The ring's name")))));
    }

    @Bean
    OpenApiCustomizer problemSchema() {
        return openApi -> ModelConverters.getInstance().read(ProblemSchema.class)
                .forEach((name, schema) -> openApi.getComponents().addSchemas(name, schema));
    }

    @Bean
    OperationCustomizer sharedParts() {
        return (operation, handler) -> {
            boolean ring = RingHeaders.carries(handler.getBeanType());
            if (ring) {
                operation.addParametersItem(new HeaderParameter().name(RingHeaders.VERSION).required(false)
                        .description("The ring version the client holds; when older than the server's, the answer "
                                + "adds X-Ring-Stale: true and the request counts as stale")
                        .schema(new IntegerSchema().format("int64").minimum(BigDecimal.ZERO)).example(7));
            }
            if (ring) {
                addIfAbsent(operation, "400", "Bad input, such as a query parameter this call does not take");
                addIfAbsent(operation, "406", "The Accept header excludes application/json");
            }
            if (operation.getRequestBody() != null) {
                addIfAbsent(operation, "415", "The body is not application/json in UTF-8, or has a "
                        + "Content-Encoding");
            }
            if (handler.hasMethodAnnotation(AdminOnly.class)) {
                operation.addSecurityItem(new SecurityRequirement().addList(ADMIN_SCHEME));
                addIfAbsent(operation, "401", "Missing or wrong admin token");
                addIfAbsent(operation, "403", "A ring token used for another ring (ringd.admin.ring-tokens)");
            }
            if (ring) {
                addIfAbsent(operation, "404", "Under /rings/{ring}: no ring of that name (field ring)");
            }
            if (operation.getResponses() != null) {
                operation.getResponses().forEach((code, response) -> shape(code, response, ring));
            }
            return operation;
        };
    }

    private static void addIfAbsent(Operation operation, String code, String description) {
        if (operation.getResponses() != null && !operation.getResponses().containsKey(code)) {
            operation.getResponses().addApiResponse(code, new ApiResponse().description(description));
        }
    }

    private static void shape(String code, ApiResponse response, boolean ring) {
        if (code.startsWith("4") || code.startsWith("5")) {
            response.setContent(new Content().addMediaType(ApiDocs.PROBLEM, new MediaType()
                    .schema(new Schema<>().$ref("#/components/schemas/" + ProblemSchema.NAME))));
        } else if (code.equals("304")) {
            response.setContent(null);
        }
        if (ring) {
            response.addHeaderObject(RingHeaders.VERSION, new Header()
                    .description("The server's current ring version").schema(new IntegerSchema().format("int64"))
                    .example(8));
            response.addHeaderObject(RingHeaders.NAME, new Header()
                    .description("The ring the answer is about: default, or the name under /rings/{ring}")
                    .schema(new StringSchema()).example("default"));
            if (code.startsWith("2") || code.equals("304")) {
                response.addHeaderObject(RingHeaders.STALE, new Header()
                        .description("true when the X-Ring-Version sent is older than the server's")
                        .schema(new BooleanSchema()).example(true));
            }
        }
    }
}
