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

    @Test
    void aStateOverTheStoresCap_isA400LimitExceeded_namingTheSizeAndTheCap() throws Exception {
        ProblemHandler handler = new ProblemHandler(new ProblemWriter());
        var r = handler.refused(new io.ringd.state.StateTooLargeException(3_000_000, 1_048_576,
                "ringd.zookeeper.max-state-bytes"));
        assertThat(r.getStatusCode().value()).isEqualTo(400);
        var p = (org.springframework.http.ProblemDetail) r.getBody();
        assertThat(p.getType().toString()).isEqualTo("urn:ringd:problem:limit-exceeded");
        assertThat(p.getDetail()).contains("3000000 bytes").contains("1048576 bytes")
                .contains("ringd.zookeeper.max-state-bytes").endsWith("nothing was changed");
    }

    @Test
    void anAnswerUnwritableBecauseTheClientWentAway_isNoFailure_anyOtherIsA500() {
        ProblemHandler handler = new ProblemHandler(new ProblemWriter());
        var request = new org.springframework.web.context.request.ServletWebRequest(
                new org.springframework.mock.web.MockHttpServletRequest(),
                new org.springframework.mock.web.MockHttpServletResponse());
        var headers = new org.springframework.http.HttpHeaders();
        var status = org.springframework.http.HttpStatusCode.valueOf(500);
        var gone = new java.io.IOException("Broken pipe");
        for (Exception e : List.of(
                new org.springframework.http.converter.HttpMessageNotWritableException("Could not write JSON",
                        new RuntimeException("wrapped", gone)),
                new org.springframework.http.converter.HttpMessageNotWritableException("Could not write JSON",
                        new org.springframework.web.context.request.async.AsyncRequestNotUsableException("gone")))) {
            assertThat(handler.handleHttpMessageNotWritable(
                    (org.springframework.http.converter.HttpMessageNotWritableException) e, headers, status, request))
                    .as("nothing to answer: nobody is there").isNull();
        }
        var r = handler.handleHttpMessageNotWritable(new org.springframework.http.converter
                .HttpMessageNotWritableException("No converter", new IllegalStateException("a bug")), headers,
                status, request);
        assertThat(r.getStatusCode().value()).isEqualTo(500);
        assertThat(((org.springframework.http.ProblemDetail) r.getBody()).getDetail()).contains("unexpected");
    }
}
