package io.ringd.web.problem;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** What the problem handler answers for a failure no refusal names, called directly. */
class ProblemHandlerTest {

    @Test
    void anUnexpectedFault_isA500ThatSaysSo_neverA400() throws Exception {
        ProblemHandler handler = new ProblemHandler(new ProblemWriter());
        for (Exception e : List.of(new IllegalArgumentException("a bug's message"), new IllegalStateException("x"),
                new NullPointerException())) {
            var r = handler.refused(e);
            assertThat(r.getStatusCode().value()).as(e.toString()).isEqualTo(500);
            var p = (org.springframework.http.ProblemDetail) r.getBody();
            assertThat(p.getType().toString()).isEqualTo("urn:ringd:problem:internal");
            assertThat(p.getDetail()).contains("unexpected").doesNotContain("a bug's message");
        }
    }
}
