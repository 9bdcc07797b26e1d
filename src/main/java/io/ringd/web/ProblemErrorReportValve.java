package io.ringd.web;

import java.io.IOException;
import java.io.OutputStream;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.tomcat.util.res.StringManager;
import org.springframework.http.ProblemDetail;

import io.ringd.web.problem.ApiException;
import io.ringd.web.problem.ProblemWriter;
import io.ringd.web.problem.Problems;

/**
 * The container's last-resort error answer, as a problem detail instead of
 * an HTML page, with the security headers. It answers what never reaches the
 * application (a malformed request, say); everything else goes through
 * {@code ProblemHandler}. The container refuses a request line or headers
 * over its limit with 400: they come out as 414 ({@code uri-too-long}) and
 * 431 ({@code headers-too-large}).
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    private static final ProblemWriter WRITER = new ProblemWriter();
    private static final StringManager HTTP11 = StringManager.getManager("org.apache.coyote.http11");

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        if (status == 400 && tooLarge(throwable)) {
            // The container answers 400 for both; the request line was not read whole when it is the one too long.
            status = request.getRequestURI() == null ? 414 : 431;
            response.setStatus(status);
        }
        String detail = switch (status) {
            case 400 -> "the request is malformed (check the percent-encoding of the path "
                    + "and query, and the size of the request line and headers)";
            case 414 -> "the request line is too long: at most 32 KiB of request line and headers";
            case 431 -> "the request headers are too large: at most 32 KiB of request line and headers";
            case 501 -> notImplemented(request);
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

    /** Whether the container refused the request line and headers as over its limit (its own words, in its locale). */
    private static boolean tooLarge(Throwable throwable) {
        return throwable instanceof IllegalArgumentException && HTTP11.getString("iib.requestheadertoolarge.error")
                .equals(throwable.getMessage());
    }

    /** The container answers 501 for a request it cannot read, such as a Transfer-Encoding it does not know. */
    private static String notImplemented(Request request) {
        String encoding = request.getHeader("Transfer-Encoding");
        if (encoding != null) {
            return "Transfer-Encoding " + ApiException.abbreviate(encoding) + " is not supported: send the body "
                    + "with Content-Length or Transfer-Encoding: chunked";
        }
        return "the server does not implement what the request asks for";
    }
}
