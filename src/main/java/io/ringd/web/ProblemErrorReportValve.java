package io.ringd.web;

import java.io.IOException;
import java.io.OutputStream;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.http.ProblemDetail;

import io.ringd.web.problem.ProblemWriter;
import io.ringd.web.problem.Problems;

/**
 * The container's last-resort error answer, as a problem detail instead of
 * an HTML page, with the security headers. It answers what never reaches the
 * application (a malformed request, say); everything else goes through
 * {@code ProblemHandler}.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    private static final ProblemWriter WRITER = new ProblemWriter();

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        String detail = switch (status) {
            case 400 -> "the request is malformed (check the percent-encoding of the path "
                    + "and query, and the size of the request line and headers)";
            case 503 -> "the service cannot answer now; try again later";
            default -> status >= 500 ? "an unexpected error occurred; it has been logged"
                    : Problems.forStatus(status).title();
        };
        ProblemDetail p = Problems.forStatus(status, detail);
        try {
            SecurityHeaders.apply(response, request.getDecodedRequestURI());
            SecurityHeaders.noStore(response);
            response.setContentType("application/problem+json");
            response.setCharacterEncoding("UTF-8");
            OutputStream out = response.getOutputStream();
            out.write(WRITER.bytes(p));
            out.flush();
        } catch (IOException | RuntimeException e) {
            // the client is gone or the answer was committed: nothing more to say
        }
    }
}
