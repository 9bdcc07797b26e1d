package io.ringd.web;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * The container's last-resort error answer, as a problem detail instead of
 * an HTML page. It answers what never reaches the application (a malformed
 * request, say); everything else goes through {@code ProblemHandler}.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        Problems type = Problems.forStatus(status);
        String detail = status == 400 ? "the request is malformed (check the percent-encoding of the path "
                + "and query, and the size of the request line and headers)" : type.title();
        String body = "{\"type\":\"" + type.type() + "\",\"title\":\"" + type.title() + "\",\"status\":" + status
                + ",\"detail\":\"" + detail + "\"}";
        try {
            response.setContentType("application/problem+json");
            response.setCharacterEncoding("UTF-8");
            OutputStream out = response.getOutputStream();
            out.write(body.getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException | IllegalStateException e) {
            // the client is gone or the answer was committed: nothing more to say
        }
    }
}
