package io.ringd.web.problem;

import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.http.converter.HttpMessageNotWritableException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MissingRequestHeaderException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.UnsatisfiedServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.context.request.async.AsyncRequestNotUsableException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

import io.ringd.state.BusyException;

/**
 * Turns every failure into an RFC 9457 problem detail
 * ({@code application/problem+json}) with {@code type}, {@code title},
 * {@code status}, {@code detail} and, where there is one, {@code field}:
 * the refusals of the ring and its service as {@link Refusals} names them,
 * an unreadable body as {@link UnreadableBody} says, and the framework's own
 * exceptions with the generic type of their status. Nothing here echoes an
 * exception class name or a stack trace.
 */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);

    private final ProblemWriter problems;

    ProblemHandler(ProblemWriter problems) {
        this.problems = problems;
    }

    /**
     * Every failure without a handler of the framework's own: a refusal of
     * {@link Refusals} (renamed by {@link Fields#named} when it was), else a
     * 500 that says nothing of the failure, which is logged. The framework's
     * own exceptions ({@link ErrorResponse}) go on to its standard handling.
     */
    @ExceptionHandler(Exception.class)
    ResponseEntity<Object> refused(Exception e) throws Exception {
        if (e instanceof Fields.Named named) {
            return refused((Exception) named.getCause(), named.field());
        }
        return refused(e, null);
    }

    private static ResponseEntity<Object> refused(Exception e, String field) throws Exception {
        ProblemDetail refusal = Refusals.problem(e, field);
        if (refusal != null) {
            return e instanceof BusyException b ? problem(refusal, b.retryAfterSeconds()) : problem(refusal);
        }
        if (e instanceof ErrorResponse) {
            throw e; // the standard handling below
        }
        log.error("Unexpected failure", e);
        return problem(Problems.INTERNAL, "an unexpected error occurred; it has been logged", null);
    }

    @Override
    protected ResponseEntity<Object> handleTypeMismatch(TypeMismatchException e, HttpHeaders headers,
            HttpStatusCode status, WebRequest request) {
        String name = e.getPropertyName();
        String value = String.valueOf(e.getValue());
        return problem(Problems.BAD_REQUEST, name + " must be " + describe(e.getRequiredType()) + ": "
                + ApiException.abbreviate(value), name);
    }

    @Override
    protected ResponseEntity<Object> handleMissingServletRequestParameter(MissingServletRequestParameterException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return problem(Problems.BAD_REQUEST, e.getParameterName() + " is required", e.getParameterName());
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return problem(UnreadableBody.problem(e));
    }

    @Override
    protected ResponseEntity<Object> handleHttpMediaTypeNotSupported(HttpMediaTypeNotSupportedException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        ResponseEntity<Object> r = problem(Problems.UNSUPPORTED_MEDIA_TYPE,
                "the body must be application/json" + (e.getContentType() == null ? ""
                        : ", not " + e.getContentType()), "Content-Type");
        return ResponseEntity.status(r.getStatusCode()).headers(headers).body(r.getBody());
    }

    /**
     * An answer that could not be written because the client went away (a long poll given up, a
     * killed script: Jackson's write fails on the closed connection) is nobody's failure: logged at
     * DEBUG, and nothing more is written. Any other unwritable answer is a 500, as before.
     */
    @Override
    protected ResponseEntity<Object> handleHttpMessageNotWritable(HttpMessageNotWritableException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            if (c instanceof IOException || c instanceof AsyncRequestNotUsableException) {
                log.debug("The client went away before its answer was written", e);
                return null;
            }
        }
        return super.handleHttpMessageNotWritable(e, headers, status, request);
    }

    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception e, Object body, HttpHeaders headers,
            HttpStatusCode status, WebRequest request) {
        if (body == null && e instanceof ErrorResponse er) {
            body = er.getBody();
        }
        ProblemDetail p = body instanceof ProblemDetail pd ? pd : ProblemDetail.forStatus(status);
        Problems type = Problems.forStatus(status.value());
        if (status.is5xxServerError()) {
            log.error("Failure answered with {}", status.value(), e);
            p.setDetail(status.value() == 503 ? "the service cannot answer now; try again later"
                    : "an unexpected error occurred; it has been logged");
        }
        if (p.getDetail() == null) {
            p.setDetail(type.title());
        }
        p.setType(type.type());
        p.setTitle(type.title());
        if (e instanceof MissingRequestHeaderException mh) {
            p.setProperty("field", mh.getHeaderName());
        }
        if (e instanceof UnsatisfiedServletRequestParameterException u
                && !u.getParamConditionGroups().isEmpty() && u.getParamConditionGroups().get(0).length == 1) {
            String param = u.getParamConditionGroups().get(0)[0];
            p.setDetail(param + " is required");
            p.setProperty("field", param);
        }
        p.setInstance(null);
        return ResponseEntity.status(status).headers(headers).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .cacheControl(CacheControl.noStore()).body(p);
    }

    @Override
    protected ResponseEntity<Object> handleHttpRequestMethodNotSupported(HttpRequestMethodNotSupportedException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        // Allow as OPTIONS says it: HEAD wherever GET is, and OPTIONS everywhere.
        Set<HttpMethod> allowed = new LinkedHashSet<>();
        if (e.getSupportedHttpMethods() != null) {
            allowed.addAll(e.getSupportedHttpMethods());
        }
        if (allowed.contains(HttpMethod.GET)) {
            allowed.add(HttpMethod.HEAD);
        }
        allowed.add(HttpMethod.OPTIONS);
        HttpHeaders h = new HttpHeaders();
        h.setAllow(allowed);
        String detail = e.getMethod() + " is not allowed here; allowed: "
                + allowed.stream().map(HttpMethod::name).collect(Collectors.joining(", "));
        return ResponseEntity.status(HttpStatus.METHOD_NOT_ALLOWED).headers(h)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON).cacheControl(CacheControl.noStore())
                .body(Problems.METHOD_NOT_ALLOWED.detail(detail, null));
    }

    @Override
    protected ResponseEntity<Object> handleHttpMediaTypeNotAcceptable(HttpMediaTypeNotAcceptableException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        String detail = "the Accept header must allow application/json (errors are application/problem+json)";
        // Written here, not negotiated: the Accept header that was refused cannot choose the problem's type.
        if (request instanceof ServletWebRequest servlet && servlet.getResponse() != null
                && !servlet.getResponse().isCommitted()) {
            HttpServletResponse response = servlet.getResponse();
            response.resetBuffer(); // the body only: the headers set so far (X-Ring-Version) stay
            try {
                problems.write(response, Problems.NOT_ACCEPTABLE, detail, "Accept");
            } catch (IOException io) {
                log.debug("The client went away before its 406 was written", io);
            }
            return null;
        }
        return problem(Problems.NOT_ACCEPTABLE, detail, "Accept");
    }

    static ResponseEntity<Object> problem(Problems type, String detail, String field) {
        return problem(type.detail(detail, field));
    }

    /** A problem answer; {@code busy} ones say when to try again ({@link Problems#RETRY_AFTER_SECONDS}). */
    private static ResponseEntity<Object> problem(ProblemDetail p) {
        return problem(p, Problems.RETRY_AFTER_SECONDS);
    }

    /** A problem answer; a {@code busy} one says to try again after {@code retryAfterSeconds}. */
    private static ResponseEntity<Object> problem(ProblemDetail p, int retryAfterSeconds) {
        ResponseEntity.BodyBuilder answer = ResponseEntity.status(p.getStatus())
                .contentType(MediaType.APPLICATION_PROBLEM_JSON).cacheControl(CacheControl.noStore());
        if (Problems.BUSY.type().equals(p.getType())) {
            answer.header(HttpHeaders.RETRY_AFTER, Integer.toString(retryAfterSeconds));
        }
        return answer.body(p);
    }

    private static String describe(Class<?> type) {
        if (type == null) {
            return "valid";
        }
        if (type == Long.class || type == long.class || type == Integer.class || type == int.class) {
            return "an integer";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        return "valid";
    }
}
