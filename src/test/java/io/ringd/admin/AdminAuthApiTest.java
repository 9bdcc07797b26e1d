package io.ringd.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.ringd.RealServerTest;
import tools.jackson.databind.JsonNode;

/**
 * Who may write: every admin call answers 401 (a problem, with
 * {@code WWW-Authenticate: Bearer}) without the token, with a wrong one,
 * with another scheme or an empty bearer; refusals are counted by reason;
 * the token is never logged or echoed; admin answers are not cached.
 */
@ExtendWith(OutputCaptureExtension.class)
class AdminAuthApiTest extends RealServerTest {

    private static final String WRONG = "wrong-admin-token-9876543210-abcdef";

    /** Every admin call, sent with {@code auth} (null: no Authorization header). */
    private List<Supplier<Response>> adminCalls(String auth) {
        Supplier<RequestSpecification> base = () -> auth == null ? api() : api().header("Authorization", auth);
        return List.of(
                () -> base.get().contentType("application/json").body("{\"weight\":1}").put("/nodes/auth-x"),
                () -> base.get().delete("/nodes/auth-x"),
                () -> base.get().contentType("application/json")
                        .body("{\"changes\":[{\"op\":\"put\",\"id\":\"auth-y\",\"weight\":1}]}").post("/membership"),
                () -> base.get().contentType("application/json").body("{\"hash\":\"md5\"}").put("/settings"),
                () -> base.get().contentType("application/json").body("{\"load\":1}").put("/nodes/auth-x/load"),
                () -> base.get().delete("/nodes/auth-x/load"),
                () -> base.get().post("/store/reseed"));
    }

    @Test
    void everyAdminCall_is401Problem_withoutTheToken_withAWrongOne_anotherSchemeOrAnEmptyBearer() {
        Snap before = snap();
        String[][] cases = {
                {null, "missing"},
                {"Bearer " + WRONG, "wrong"},
                {"Bearer " + TOKEN + "x", "wrong"},
                {"Bearer " + TOKEN.substring(1), "wrong"},
                {"Basic " + java.util.Base64.getEncoder().encodeToString(("admin:" + TOKEN).getBytes()), "scheme"},
                {TOKEN, "scheme"},
                {"Token " + TOKEN, "scheme"},
                {"Bearer", "empty"},
                {"Bearer ", "empty"},
                {"Bearer    ", "empty"},
        };
        for (String[] c : cases) {
            double failures = failures(c[1]);
            for (Supplier<Response> call : adminCalls(c[0])) {
                Response r = call.get();
                JsonNode p = assertProblem(r, 401, "Authorization");
                assertThat(p.get("type").asString()).isEqualTo("urn:ringd:problem:unauthorized");
                assertThat(r.header("WWW-Authenticate")).as(c[0]).startsWith("Bearer");
                assertThat(r.header("Cache-Control")).isEqualTo("no-store");
                assertThat(r.asString()).doesNotContain(TOKEN).doesNotContain(WRONG);
            }
            assertThat(failures(c[1])).as("ringd_admin_auth_failures_total{reason=%s} after %s", c[1], c[0])
                    .isEqualTo(failures + adminCalls(null).size());
        }
        assertUnchanged(before);
    }

    @Test
    void theToken_isNeverLogged_norEchoed_inFailedOrSuccessfulCalls(CapturedOutput output) {
        int mark = output.getAll().length();
        for (String auth : List.of("Bearer " + WRONG, "Bearer " + TOKEN, "Basic " + WRONG)) {
            for (Supplier<Response> call : adminCalls(auth)) {
                Response r = call.get();
                assertThat(r.asString()).doesNotContain(TOKEN).doesNotContain(WRONG);
                r.headers().forEach(h -> assertThat(h.getValue()).doesNotContain(TOKEN).doesNotContain(WRONG));
            }
        }
        api().header("Authorization", "Bearer " + TOKEN).get("/nope"); // an error answer too
        String logged = output.getAll().substring(mark);
        assertThat(logged).doesNotContain(TOKEN).doesNotContain(WRONG);
    }

    @Test
    void adminAnswers_areNotCached() {
        Response r = adminJson("{\"weight\":1}").put("/nodes/auth-cache");
        assertThat(r.statusCode()).isIn(200, 201);
        assertThat(r.header("Cache-Control")).isEqualTo("no-store");
        assertThat(admin().delete("/nodes/auth-cache").header("Cache-Control")).isEqualTo("no-store");
    }

    @Test
    void theBearerScheme_isCaseInsensitive() {
        Response r = api().header("Authorization", "bearer " + TOKEN).contentType("application/json")
                .body("{\"weight\":1}").put("/nodes/auth-case");
        assertThat(r.statusCode()).isIn(200, 201);
        admin().delete("/nodes/auth-case").then().statusCode(200);
    }

    private double failures(String reason) {
        String text = api().get("/actuator/prometheus").then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("(?m)^ringd_admin_auth_failures_total\\{[^}]*reason=\"" + reason
                + "\"[^}]*\\} ([0-9.eE+]+)$").matcher(text);
        assertThat(m.find()).as("ringd_admin_auth_failures_total{reason=%s}", reason).isTrue();
        return Double.parseDouble(m.group(1));
    }
}
