package io.ringd.web;

import java.nio.ByteBuffer;

import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import org.springframework.http.ProblemDetail;

import io.ringd.web.problem.ProblemWriter;
import io.ringd.web.problem.Problems;

/**
 * The container's last-resort error answer, as a problem detail instead of
 * an HTML page, with the security headers. It answers what never reaches the
 * application (a malformed request line, headers over their limit, a
 * Transfer-Encoding the container does not know); everything else goes
 * through {@code ProblemHandler} and {@code ProblemErrorController}.
 */
final class ProblemErrorHandler extends ErrorHandler {

    private static final ProblemWriter WRITER = new ProblemWriter();

    /** Every method gets its problem detail (Jetty's own handler writes a body for GET, POST and HEAD only). */
    @Override
    public boolean errorPageForMethod(String method) {
        return true;
    }

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
            Callback callback) {
        if (code == 400 && unknownTransferEncoding(message)) {
            code = 501; // RFC 9112 section 6.1: a transfer coding the server does not understand
            response.setStatus(code);
        }
        String detail = switch (code) {
            case 400 -> "the request is malformed (check the percent-encoding of the path "
                    + "and query, and the size of the request line and headers)";
            case 414 -> "the request line is too long: at most 32 KiB of request line and headers";
            case 431 -> "the request headers are too large: at most 32 KiB of request line and headers";
            case 501 -> "the Transfer-Encoding is not supported: send the body with Content-Length or "
                    + "Transfer-Encoding: chunked";
            case 503 -> "the service cannot answer now; try again later";
            case 505 -> "the HTTP version is not supported: ringd speaks HTTP/1.1";
            default -> code >= 500 ? "an unexpected error occurred; it has been logged"
                    : Problems.forStatus(code).title();
        };
        ProblemDetail p = Problems.forStatus(code, detail);
        HttpFields.Mutable headers = response.getHeaders();
        headers.put("X-Content-Type-Options", "nosniff");
        headers.put("Referrer-Policy", "no-referrer");
        headers.put("X-Frame-Options", "DENY");
        headers.put("Content-Security-Policy", SecurityHeaders.API_POLICY);
        headers.put(HttpHeader.CACHE_CONTROL, "no-store");
        headers.put(HttpHeader.CONTENT_TYPE, "application/problem+json");
        // the container closes the connection after a request it could not read: say so, so that a client
        // does not send its next request on it
        headers.put(HttpHeader.CONNECTION, "close");
        response.write(true, ByteBuffer.wrap(WRITER.bytes(p)), callback);
    }

    /**
     * Whether the container refused the request for a Transfer-Encoding other than chunked (it says "chunked
     * not last", and has not kept the request's headers).
     */
    private static boolean unknownTransferEncoding(String message) {
        return message != null && message.startsWith("Bad Transfer-Encoding");
    }
}
