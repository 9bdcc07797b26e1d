package io.ringd.web.problem;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

import io.ringd.ring.RingException;
import io.ringd.state.InvalidInputException;
import io.ringd.state.StoreUnavailableException;
import io.ringd.state.VersionException;
import io.ringd.web.RingHeaders;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * Turns every failure into an RFC 9457 problem detail
 * ({@code application/problem+json}) with {@code type}, {@code title},
 * {@code status}, {@code detail} and, where there is one, {@code field}.
 * Nothing here echoes an exception class name or a stack trace.
 */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);

    private final ProblemWriter problems;

    ProblemHandler(ProblemWriter problems) {
        this.problems = problems;
    }

    /** Refusals of the ring and its service, each mapped once; {@link Fields#named} renames their field. */
    @ExceptionHandler({ApiException.class, InvalidInputException.class, RingException.class, VersionException.class,
            StoreUnavailableException.class})
    ResponseEntity<Object> refused(RuntimeException e) {
        return refusal(e, null);
    }

    @ExceptionHandler(Fields.Named.class)
    ResponseEntity<Object> named(Fields.Named e) throws Exception {
        if (e.getCause() instanceof RuntimeException cause && mapped(cause)) {
            return refusal(cause, e.field());
        }
        return unexpected((Exception) e.getCause());
    }

    private static boolean mapped(RuntimeException e) {
        return e instanceof ApiException || e instanceof InvalidInputException || e instanceof RingException
                || e instanceof VersionException || e instanceof StoreUnavailableException;
    }

    /** The problem for one refusal; {@code field}, when not null, names the input in place of its own. */
    private static ResponseEntity<Object> refusal(RuntimeException e, String field) {
        if (e instanceof ApiException a) {
            return problem(a.problem(), a.getMessage(), field != null ? field : a.field());
        }
        if (e instanceof InvalidInputException i) {
            return problem(Problems.BAD_REQUEST, i.getMessage(), field != null ? field : i.field());
        }
        if (e instanceof RingException.NoNodes) {
            return problem(Problems.NO_NODES, "the ring has no nodes: add one with PUT /nodes/{id}", null);
        }
        if (e instanceof RingException.UnknownNode) {
            return problem(Problems.NODE_NOT_FOUND, e.getMessage(), field != null ? field : "id");
        }
        if (e instanceof RingException.LimitExceeded) {
            return problem(Problems.LIMIT_EXCEEDED, e.getMessage() + "; nothing was changed", field);
        }
        if (e instanceof RingException.InvalidBatch) {
            return problem(Problems.BAD_REQUEST, e.getMessage(), field != null ? field : "changes");
        }
        if (e instanceof VersionException.Mismatch) {
            return problem(Problems.PRECONDITION_FAILED, e.getMessage(), field != null ? field : "If-Match");
        }
        if (e instanceof VersionException.NotMade) {
            return problem(Problems.VERSION_NOT_FOUND, e.getMessage(), field != null ? field : "version");
        }
        if (e instanceof VersionException.Gone) {
            return problem(Problems.VERSION_GONE, e.getMessage(), field != null ? field : "version");
        }
        if (e instanceof StoreUnavailableException su) {
            if (su.outcomeUnknown()) {
                log.error("Store unavailable while storing a change; it may have been stored", e);
                return problem(Problems.STORE_UNAVAILABLE, "the store became unreachable while the change was "
                        + "being stored: it may or may not have been applied; read the ring (GET /ring) before "
                        + "trying again", null);
            }
            log.error("Store unavailable; the change was not applied", e);
            return problem(Problems.STORE_UNAVAILABLE, "the change could not be made durable and was not applied",
                    null);
        }
        log.error("Unexpected refusal", e);
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
        if ((e.getCause() instanceof DatabindException || e.getCause() instanceof InputCoercionException)
                && !((JacksonException) e.getCause()).getPath().isEmpty()) {
            return bodyField((JacksonException) e.getCause()); // valid JSON, not of the body's shape
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InvalidBodyException invalid) {
                return problem(Problems.BAD_REQUEST, invalid.getMessage(), "body");
            }
        }
        if (e.getCause() instanceof StreamReadException sre) {
            String duplicate = duplicateField(sre);
            if (duplicate != null) {
                return problem(Problems.BAD_REQUEST, "the field " + duplicate + " is given twice; give it once",
                        duplicate);
            }
        }
        if (e.getCause() instanceof MismatchedInputException) {
            why = "the body must be a JSON object";
        } else if (e.getCause() instanceof tools.jackson.core.exc.StreamConstraintsException) {
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

    private static final Pattern DUPLICATE = Pattern.compile("^Duplicate Object property \"(.*)\"", Pattern.DOTALL);

    /** The field a duplicate-property refusal is about ({@code changes[1].id}), or {@code null} if it is not one. */
    private static String duplicateField(StreamReadException e) {
        Matcher m = DUPLICATE.matcher(String.valueOf(e.getOriginalMessage()));
        if (!m.find()) {
            return null;
        }
        StringBuilder path = new StringBuilder();
        JsonParser parser = e.processor();
        if (parser != null) {
            Deque<TokenStreamContext> chain = new ArrayDeque<>();
            for (TokenStreamContext c = parser.streamReadContext(); c != null; c = c.getParent()) {
                chain.push(c);
            }
            chain.pollLast(); // the object that holds the duplicate
            for (TokenStreamContext c : chain) {
                if (c.inArray()) {
                    path.append('[').append(Math.max(0, c.getCurrentIndex())).append(']');
                } else if (c.inObject() && c.currentName() != null) {
                    path.append(path.isEmpty() ? "" : ".").append(c.currentName());
                }
            }
        }
        return ApiException.abbreviate(path + (path.isEmpty() ? "" : ".") + m.group(1));
    }

    /** A body that is JSON but not of the request's shape, naming the field at fault ({@code changes[2].weight}). */
    private static ResponseEntity<Object> bodyField(JacksonException e) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference r : e.getPath()) {
            if (r.getIndex() >= 0) {
                path.append('[').append(r.getIndex()).append(']');
            } else if (r.getPropertyName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(r.getPropertyName());
            }
        }
        String field = path.isEmpty() ? "body" : ApiException.abbreviate(path.toString());
        if (e instanceof UnrecognizedPropertyException u) {
            List<String> known = u.getKnownPropertyIds().stream().map(String::valueOf).sorted().toList();
            return problem(Problems.BAD_REQUEST, "unknown field " + ApiException.abbreviate(u.getPropertyName())
                    + "; expected one of " + known, field);
        }
        Class<?> target = e instanceof MismatchedInputException m ? m.getTargetType()
                : e instanceof InputCoercionException c ? c.getTargetType() : null;
        return problem(Problems.BAD_REQUEST, field + " must be " + describeJson(target), field);
    }

    private static String describeJson(Class<?> type) {
        if (type == null) {
            return "of another type";
        }
        if (type == Double.class || type == double.class || type == Float.class || type == float.class) {
            return "a JSON number";
        }
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "an integer in range";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (java.util.Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "an array";
        }
        return "a JSON object";
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
            response.resetBuffer();
            String version = response.getHeader(RingHeaders.VERSION);
            try {
                problems.write(response, Problems.NOT_ACCEPTABLE, detail, "Accept");
            } catch (java.io.IOException io) {
                log.debug("The client went away before its 406 was written", io);
            }
            if (version != null) {
                response.setHeader(RingHeaders.VERSION, version);
            }
            return null;
        }
        return problem(Problems.NOT_ACCEPTABLE, detail, "Accept");
    }

    static ResponseEntity<Object> problem(Problems type, String detail, String field) {
        return ResponseEntity.status(type.status()).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .cacheControl(CacheControl.noStore()).body(type.detail(detail, field));
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
