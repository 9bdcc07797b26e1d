package io.ringd.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.restassured.response.Response;
import io.ringd.RealServerTest;

/**
 * Security headers on every answer (successes, refusals before and after
 * the controllers, the container's own errors, the actuator), a policy that
 * lets the API browser run, and no cross-origin access by default.
 */
class SecurityHeadersApiTest extends RealServerTest {

    @BeforeEach
    void aNode() {
        putNode("sec-a", 1, null);
    }

    private void assertSecurityHeaders(String what, Answer a) {
        assertThat(a.header("x-content-type-options")).as("%s: X-Content-Type-Options", what).isEqualTo("nosniff");
        assertThat(a.header("referrer-policy")).as("%s: Referrer-Policy", what).isEqualTo("no-referrer");
        assertThat(a.header("x-frame-options")).as("%s: X-Frame-Options", what).isEqualTo("DENY");
        assertThat(a.header("content-security-policy")).as("%s: CSP", what).isNotNull()
                .contains("frame-ancestors 'none'");
    }

    @Test
    void everyAnswer_carriesTheSecurityHeaders_errorsAndActuatorToo() {
        Map<String, Answer> answers = new LinkedHashMap<>();
        answers.put("GET /route/k", Answer.of(api().get("/route/k")));
        answers.put("GET /ring", Answer.of(api().get("/ring")));
        answers.put("404", Answer.of(api().get("/nope")));
        answers.put("400 of a controller", Answer.of(api().get("/preference/k?n=0")));
        answers.put("400 before the controllers", Answer.of(httpGet("/route/a;b")));
        answers.put("401", Answer.of(api().delete("/nodes/sec-a")));
        answers.put("405", Answer.of(api().delete("/ring")));
        answers.put("TRACE", rawHttp("TRACE /ring HTTP/1.1", null));
        answers.put("the container's 400", rawHttp("GET /route/%ZZ HTTP/1.1", null));
        answers.put("health", Answer.of(api().get("/actuator/health")));
        answers.put("prometheus", Answer.of(api().get("/actuator/prometheus")));
        answers.put("api docs", Answer.of(api().get("/v3/api-docs")));
        answers.put("admin 200", Answer.of(adminJson("{\"weight\":2}").put("/nodes/sec-a")));
        answers.forEach(this::assertSecurityHeaders);
        for (String api : List.of("GET /route/k", "GET /ring", "404", "401", "health", "api docs")) {
            assertThat(answers.get(api).header("content-security-policy")).as(api)
                    .isEqualTo("default-src 'none'; frame-ancestors 'none'");
        }
        for (String error : List.of("404", "400 of a controller", "400 before the controllers", "401", "405", "TRACE",
                "the container's 400", "admin 200")) {
            assertThat(answers.get(error).header("cache-control")).as(error).isEqualTo("no-store");
        }
    }

    @Test
    void theApiBrowser_getsAPolicyThatLetsItsOwnScriptsRun_andTheyLoad() {
        Response page = api().get("/swagger-ui/index.html");
        assertThat(page.statusCode()).isEqualTo(200);
        String csp = page.header("Content-Security-Policy");
        assertThat(csp).contains("script-src 'self'").contains("style-src 'self'").contains("connect-src 'self'")
                .contains("frame-ancestors 'none'").doesNotContain("unsafe-eval");
        String html = page.asString();
        assertThat(html).as("no inline script, which the policy would block")
                .doesNotContainPattern("<script(?![^>]*\\bsrc=)[^>]*>\\s*\\S");
        List<String> assets = new ArrayList<>();
        Matcher m = Pattern.compile("<(?:script[^>]*\\bsrc|link[^>]*\\bhref)=\"([^\"]+)\"").matcher(html);
        while (m.find()) {
            assets.add(m.group(1));
        }
        assertThat(assets).as("scripts and styles of the API browser").isNotEmpty()
                .anyMatch(a -> a.endsWith(".js"));
        for (String asset : assets) {
            String path = asset.startsWith("./") ? "/swagger-ui/" + asset.substring(2)
                    : asset.startsWith("/") ? asset : "/swagger-ui/" + asset;
            Response r = api().get(path);
            assertThat(r.statusCode()).as(path).isEqualTo(200);
            assertThat(r.header("Content-Security-Policy")).as(path).isEqualTo(csp);
        }
        Response config = api().get("/v3/api-docs/swagger-config");
        assertThat(config.statusCode()).as("the configuration the browser fetches (connect-src 'self')")
                .isEqualTo(200);
    }

    @Test
    void noCrossOriginAccess_byDefault() {
        Response preflight = api().header("Origin", "https://elsewhere.example").header(
                "Access-Control-Request-Method", "PUT").options("/nodes/sec-a");
        assertThat(preflight.header("Access-Control-Allow-Origin")).isNull();
        assertThat(preflight.header("Access-Control-Allow-Methods")).isNull();
        assertThat(preflight.header("Allow")).as("a preflight is not a plain OPTIONS").isNull();
        assertThat(preflight.statusCode()).isEqualTo(403);
        assertThat(preflight.jsonPath().getString("type")).isEqualTo("urn:ringd:problem:forbidden");
        Response get = api().header("Origin", "https://elsewhere.example").get("/route/k");
        assertThat(get.header("Access-Control-Allow-Origin")).isNull();
    }
}
