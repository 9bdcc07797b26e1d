package io.ringd.web;

import org.springframework.context.annotation.Configuration;

import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.enums.SecuritySchemeType;
import io.swagger.v3.oas.annotations.info.Info;
import io.swagger.v3.oas.annotations.security.SecurityScheme;

/** The API description's header and the admin bearer token scheme. */
@Configuration(proxyBeanMethods = false)
@OpenAPIDefinition(info = @Info(title = "ringd", version = "1",
        description = "A consistent-hash ring served over HTTP. Every ring answer carries X-Ring-Version; "
                + "errors are RFC 9457 problem details (application/problem+json)."))
@SecurityScheme(name = "admin", type = SecuritySchemeType.HTTP, scheme = "bearer",
        description = "The admin token (ringd.admin.token / RINGD_ADMIN_TOKEN, or <data-dir>/admin-token)")
class OpenApiConfiguration {
}
