package io.ringd.web.problem;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;

import org.eclipse.jetty.http.BadMessageException;

import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Answers the container's error dispatches ({@code /error}) with a problem
 * detail, never an HTML page. Its type is the status's generic one
 * ({@link Problems#forStatus}): the container's 503 is not the ring's. A
 * request for {@code /error} itself, not an error dispatch, is a 404.
 */
@RestController
@io.swagger.v3.oas.annotations.Hidden
class ProblemErrorController implements ErrorController {

    @RequestMapping("/error")
    ResponseEntity<Object> error(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        ProblemDetail body;
        if (!(code instanceof Integer status)) {
            body = Problems.NOT_FOUND.detail("no such resource", null);
        } else if (status == 500 && badBody(request.getAttribute(RequestDispatcher.ERROR_EXCEPTION))) {
            // A body that broke its framing (a malformed chunk), met while it was received without a thread:
            // the container makes it an asynchronous error, 500; it is the client's, as a blocking read made it.
            body = Problems.BAD_REQUEST.detail("the body could not be read as its headers frame it (a malformed "
                    + "chunk)", "body");
        } else if (status >= 500) {
            body = Problems.forStatus(status, status == 503 ? "the service cannot answer now; try again later"
                    : "an unexpected error occurred; it has been logged");
        } else {
            HttpStatus resolved = HttpStatus.resolve(status);
            body = Problems.forStatus(status, resolved != null ? resolved.getReasonPhrase()
                    : Problems.forStatus(status).title());
        }
        return ResponseEntity.status(body.getStatus()).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .cacheControl(CacheControl.noStore()).body(body);
    }

    /** Whether {@code error} is, or is caused by, the container's refusal of what a client sent. */
    private static boolean badBody(Object error) {
        for (Throwable t = error instanceof Throwable e ? e : null; t != null; t = t.getCause()) {
            if (t instanceof BadMessageException) {
                return true;
            }
        }
        return false;
    }
}
