package io.ringd.web;

import java.util.Enumeration;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.HttpHeaders;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;

import io.ringd.web.problem.ApiException;
import io.ringd.web.problem.Problems;

/**
 * What a request's headers alone refuse, in this order: two {@code Authorization} or two
 * {@code Content-Type} headers (400: which one counts is not for ringd to
 * guess), a body on {@code DELETE} (400: no delete reads one), an announced
 * body over the limit (413), an {@code Accept} that is no list of media types
 * (406), a body {@code Content-Encoding} (ringd decodes none: 415) and a
 * charset other than UTF-8 (415).
 */
final class HeadCheck {

    private HeadCheck() {
    }

    /** @throws ApiException the refusal, naming the header (or {@code body}) at fault */
    static void check(HttpServletRequest request, long maxBodyBytes) {
        String transferEncoding = request.getHeader(HttpHeaders.TRANSFER_ENCODING);
        once(request, HttpHeaders.AUTHORIZATION);
        once(request, HttpHeaders.CONTENT_TYPE);
        long length = request.getContentLengthLong();
        if ("DELETE".equals(request.getMethod()) && (length > 0 || transferEncoding != null)) {
            throw ApiException.badRequest("DELETE takes no body: send it without one", "body");
        }
        if (length > maxBodyBytes) {
            throw new ApiException(Problems.PAYLOAD_TOO_LARGE,
                    "the body must be at most " + maxBodyBytes + " bytes: it is " + length, "body");
        }
        String accept = request.getHeader(HttpHeaders.ACCEPT);
        if (accept != null && !parses(accept)) {
            throw new ApiException(Problems.NOT_ACCEPTABLE, "the Accept header is not a list of media "
                    + "types: send application/json (or leave it out)", HttpHeaders.ACCEPT);
        }
        String encoding = request.getHeader(HttpHeaders.CONTENT_ENCODING);
        if (encoding != null && !encoding.trim().equalsIgnoreCase("identity")) {
            throw new ApiException(Problems.UNSUPPORTED_CONTENT_ENCODING, "ringd reads bodies as sent: "
                    + "send them without a Content-Encoding (not " + ApiException.abbreviate(encoding) + ")",
                    HttpHeaders.CONTENT_ENCODING);
        }
        boolean body = length > 0 || length < 0 && request.getHeader("Transfer-Encoding") != null;
        String charset = body ? charset(request.getContentType()) : null;
        if (charset != null && !charset.equalsIgnoreCase("UTF-8")) {
            throw new ApiException(Problems.UNSUPPORTED_MEDIA_TYPE, "bodies are JSON in UTF-8: "
                    + "leave the charset out or make it UTF-8 (not " + ApiException.abbreviate(charset) + ")",
                    HttpHeaders.CONTENT_TYPE);
        }
    }

    /** @throws ApiException 400 naming {@code name} if the request has it more than once (values never echoed) */
    private static void once(HttpServletRequest request, String name) {
        Enumeration<String> values = request.getHeaders(name);
        int count = 0;
        while (values != null && values.hasMoreElements()) {
            values.nextElement();
            count++;
        }
        if (count > 1) {
            throw ApiException.badRequest("send one " + name + " header, not " + count, name);
        }
    }

    private static boolean parses(String accept) {
        try {
            MediaType.parseMediaTypes(accept);
            return true;
        } catch (InvalidMediaTypeException e) {
            return false;
        }
    }

    /** The charset parameter of a Content-Type, or {@code null} (none, or no valid Content-Type). */
    private static String charset(String contentType) {
        if (contentType == null) {
            return null;
        }
        try {
            String charset = MediaType.parseMediaType(contentType).getParameter("charset");
            return charset == null ? null : charset.replace("\"", "");
        } catch (InvalidMediaTypeException e) {
            return null; // MVC refuses it with 415
        }
    }
}
