package io.ringd.web;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.MissingRequestHeaderException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.UnsatisfiedServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

import io.ringd.ring.RingException;
import io.ringd.state.InvalidRequestException;
import io.ringd.state.StoreUnavailableException;
import io.ringd.state.VersionException;
import tools.jackson.core.JacksonException;

/**
 * Turns every failure into an RFC 9457 problem detail
 * ({@code application/problem+json}) with {@code type}, {@code title},
 * {@code status}, {@code detail} and, where there is one, {@code field}.
 * Nothing here echoes an exception class name or a stack trace.
 */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);

    @ExceptionHandler(ApiException.class)
    ResponseEntity<Object> api(ApiException e) {
        return problem(e.problem(), e.getMessage(), e.field());
    }

    @ExceptionHandler(InvalidRequestException.class)
    ResponseEntity<Object> invalid(InvalidRequestException e) {
        return problem(Problems.BAD_REQUEST, e.getMessage(), e.field());
    }

    @ExceptionHandler(RingException.NoNodes.class)
    ResponseEntity<Object> noNodes(RingException.NoNodes e) {
        return problem(Problems.NO_NODES, "the ring has no nodes: add one with PUT /nodes/{id}", null);
    }

    @ExceptionHandler(RingException.UnknownNode.class)
    ResponseEntity<Object> unknownNode(RingException.UnknownNode e) {
        return problem(Problems.NODE_NOT_FOUND, e.getMessage(), "id");
    }

    @ExceptionHandler(RingException.LimitExceeded.class)
    ResponseEntity<Object> limit(RingException.LimitExceeded e) {
        return problem(Problems.LIMIT_EXCEEDED, e.getMessage() + "; nothing was changed", null);
    }

    @ExceptionHandler(RingException.InvalidBatch.class)
    ResponseEntity<Object> batch(RingException.InvalidBatch e) {
        return problem(Problems.BAD_REQUEST, e.getMessage(), "changes");
    }

    @ExceptionHandler(VersionException.Mismatch.class)
    ResponseEntity<Object> mismatch(VersionException.Mismatch e) {
        return problem(Problems.PRECONDITION_FAILED, e.getMessage(), "If-Match");
    }

    @ExceptionHandler(VersionException.NotMade.class)
    ResponseEntity<Object> notMade(VersionException.NotMade e) {
        return problem(Problems.VERSION_NOT_FOUND, e.getMessage(), "version");
    }

    @ExceptionHandler(VersionException.Gone.class)
    ResponseEntity<Object> gone(VersionException.Gone e) {
        return problem(Problems.VERSION_GONE, e.getMessage(), "version");
    }

    @ExceptionHandler(StoreUnavailableException.class)
    ResponseEntity<Object> store(StoreUnavailableException e) {
        log.error("Store unavailable; the change was not applied", e);
        return problem(Problems.STORE_UNAVAILABLE, "the change could not be made durable and was not applied", null);
    }

    @Override
    protected ResponseEntity<Object> handleTypeMismatch(TypeMismatchException e, HttpHeaders headers,
            HttpStatusCode status, WebRequest request) {
        String name = e.getPropertyName();
        String value = String.valueOf(e.getValue());
        return problem(Problems.BAD_REQUEST, name + " must be " + describe(e.getRequiredType()) + ": "
                + Versions.abbreviate(value), name);
    }

    @ExceptionHandler(IllegalArgumentException.class)
    ResponseEntity<Object> illegalArgument(IllegalArgumentException e) {
        return problem(Problems.BAD_REQUEST, e.getMessage(), null);
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<Object> unexpected(Exception e) throws Exception {
        if (e instanceof ErrorResponse) {
            throw e; // the standard handling below
        }
        log.error("Unexpected failure", e);
        return problem(Problems.INTERNAL, "an unexpected error occurred; it has been logged", null);
    }

    @Override
    protected ResponseEntity<Object> handleMissingServletRequestParameter(MissingServletRequestParameterException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return problem(Problems.BAD_REQUEST, e.getParameterName() + " is required", e.getParameterName());
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BodyTooLargeException tooLarge) {
                return problem(Problems.PAYLOAD_TOO_LARGE, tooLarge.getMessage(), "body");
            }
        }
        String why = "the body must be a JSON document";
        if (e.getCause() instanceof tools.jackson.core.exc.StreamConstraintsException) {
            why = "the body holds a number, string or nesting too large to read";
        } else if (e.getCause() instanceof JacksonException je) {
            String original = String.valueOf(je.getOriginalMessage())
                    .replaceAll("\\s*\\(start marker at \\[Source.*?\\]\\)", "");
            // Parser messages that name its classes or features say nothing to a client.
            boolean internal = original.contains("`") || original.contains("tools.jackson")
                    || original.contains("Feature");
            why = "the body is not valid JSON" + (internal ? "" : ": " + original);
            if (je.getLocation() != null && je.getLocation().getLineNr() > 0) {
                why += " (line " + je.getLocation().getLineNr() + ", column " + je.getLocation().getColumnNr() + ")";
            }
        } else if (e.getMessage() != null && e.getMessage().startsWith("Required request body is missing")) {
            why = "a JSON body is required";
        }
        return problem(Problems.BAD_REQUEST, why, "body");
    }

    @Override
    protected ResponseEntity<Object> handleHttpMediaTypeNotSupported(HttpMediaTypeNotSupportedException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        ResponseEntity<Object> r = problem(Problems.UNSUPPORTED_MEDIA_TYPE,
                "the body must be application/json" + (e.getContentType() == null ? ""
                        : ", not " + e.getContentType()), "Content-Type");
        return ResponseEntity.status(r.getStatusCode()).headers(headers).body(r.getBody());
    }

    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception e, Object body, HttpHeaders headers,
            HttpStatusCode status, WebRequest request) {
        if (body == null && e instanceof ErrorResponse er) {
            body = er.getBody();
        }
        ProblemDetail p = body instanceof ProblemDetail pd ? pd : ProblemDetail.forStatus(status);
        Problems type = Problems.forStatus(status.value());
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
        return ResponseEntity.status(status).headers(headers).contentType(
                MediaType.APPLICATION_PROBLEM_JSON).body(p);
    }

    static ResponseEntity<Object> problem(Problems type, String detail, String field) {
        return ResponseEntity.status(type.status()).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(type.detail(detail, field));
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
