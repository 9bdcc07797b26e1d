package io.ringd.admin;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.restassured.RestAssured;
import io.restassured.response.Response;

/**
 * Rotating the admin token without downtime (docs/security.md): with
 * {@code ringd.admin.previous-token} set, the current and the previous
 * token are both accepted, and nothing else.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "ringd.store=memory",
        "ringd.admin.token=" + TokenRotationApiTest.NEW,
        "ringd.admin.previous-token=" + TokenRotationApiTest.OLD,
        "ringd.cors.allowed-origins=https://ops.example.com",
        "ringd.data-dir=target/rotation-test-data",
        "logging.level.io.ringd=WARN" })
public class TokenRotationApiTest {

    /** The token being rotated to, and the one being rotated from. */
    public static final String NEW = "new-admin-token-0123456789abcdef";
    public static final String OLD = "old-admin-token-0123456789abcdef";

    @LocalServerPort
    int port;

    private Response put(String token, String id) {
        return RestAssured.given().baseUri("http://localhost").port(port).header("Authorization", "Bearer " + token)
                .contentType("application/json").body("{\"weight\":1}").put("/nodes/" + id);
    }

    @Test
    void theCurrentAndThePreviousToken_areBothAccepted_andNothingElse() {
        assertThat(put(NEW, "rot-a").statusCode()).isIn(200, 201);
        assertThat(put(OLD, "rot-b").statusCode()).isIn(200, 201);
        for (String wrong : new String[] {NEW + "x", OLD.substring(1), "another-token-0123456789abc"}) {
            Response r = put(wrong, "rot-c");
            assertThat(r.statusCode()).isEqualTo(401);
            assertThat(r.header("WWW-Authenticate")).startsWith("Bearer");
        }
    }

    @Test
    void aPreviousTokenAlone_isRefusedAtStart() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new AdminProperties(null, OLD, null))
                .hasMessageContaining("ringd.admin.previous-token needs ringd.admin.token");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new AdminProperties(NEW, "short", null))
                .hasMessageContaining("ringd.admin.previous-token must be at least 16");
    }
}
