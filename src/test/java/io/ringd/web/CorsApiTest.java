package io.ringd.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.restassured.RestAssured;
import io.restassured.response.Response;
import io.ringd.admin.TokenRotationApiTest;

/**
 * Cross-origin access when {@code ringd.cors.allowed-origins} names an
 * origin: that origin's preflight and requests are allowed, no other's.
 * (Without the setting, no origin is: {@link SecurityHeadersApiTest}.) The
 * same properties as {@link TokenRotationApiTest}, so the two share one server.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "ringd.store=memory",
        "ringd.admin.token=" + TokenRotationApiTest.NEW,
        "ringd.admin.previous-token=" + TokenRotationApiTest.OLD,
        "ringd.cors.allowed-origins=https://ops.example.com",
        "ringd.data-dir=target/rotation-test-data",
        "logging.level.io.ringd=WARN" })
class CorsApiTest {

    @LocalServerPort
    int port;

    private Response preflight(String origin, String method) {
        return preflight(origin, method, "/nodes/x");
    }

    private Response preflight(String origin, String method, String path) {
        return RestAssured.given().baseUri("http://localhost").port(port).header("Origin", origin)
                .header("Access-Control-Request-Method", method)
                .header("Access-Control-Request-Headers", "authorization, content-type").options(path);
    }

    @Test
    void aPreflight_namesThePathsOwnMethods_andRefusesOthers() {
        assertThat(preflight("https://ops.example.com", "PUT", "/nodes/x").header("Access-Control-Allow-Methods"))
                .isEqualTo("GET,HEAD,PUT,DELETE");
        assertThat(preflight("https://ops.example.com", "GET", "/route/k").header("Access-Control-Allow-Methods"))
                .isEqualTo("GET,HEAD");
        assertThat(preflight("https://ops.example.com", "POST", "/diff").header("Access-Control-Allow-Methods"))
                .isEqualTo("GET,HEAD,POST");
        Response delete = preflight("https://ops.example.com", "DELETE", "/route/k");
        assertThat(delete.statusCode()).isEqualTo(403);
        assertThat(delete.header("Access-Control-Allow-Origin")).isNull();
        assertThat(delete.jsonPath().getString("type")).isEqualTo("urn:ringd:problem:forbidden");
        assertThat(delete.jsonPath().getString("field")).isEqualTo("Access-Control-Request-Method");
        assertThat(delete.jsonPath().getString("detail")).contains("DELETE").contains("GET, HEAD");
        Response nowhere = preflight("https://ops.example.com", "GET", "/no/such/path");
        assertThat(nowhere.statusCode()).isEqualTo(403);
        assertThat(nowhere.header("Access-Control-Allow-Methods")).isNull();
    }

    @Test
    void aConfiguredOrigin_isAllowed_andNoOther() {
        Response ok = preflight("https://ops.example.com", "PUT");
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.header("Access-Control-Allow-Origin")).isEqualTo("https://ops.example.com");
        assertThat(ok.header("Access-Control-Allow-Methods")).contains("PUT");
        assertThat(ok.header("Access-Control-Allow-Credentials")).isNull();

        Response other = preflight("https://evil.example.net", "PUT");
        assertThat(other.statusCode()).isEqualTo(403);
        assertThat(other.header("Access-Control-Allow-Origin")).isNull();
        assertThat(other.contentType()).startsWith("application/problem+json");
        assertThat(other.jsonPath().getString("type")).isEqualTo("urn:ringd:problem:forbidden");
        assertThat(other.jsonPath().getString("field")).isEqualTo("Origin");

        Response get = RestAssured.given().baseUri("http://localhost").port(port)
                .header("Origin", "https://ops.example.com").get("/nodes");
        assertThat(get.header("Access-Control-Allow-Origin")).isEqualTo("https://ops.example.com");
        assertThat(get.header("Access-Control-Expose-Headers")).contains("X-Ring-Version");
    }
}
