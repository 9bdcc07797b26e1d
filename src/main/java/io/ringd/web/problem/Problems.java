package io.ringd.web.problem;

import java.net.URI;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/** The problem types ringd answers with (RFC 9457), one per cause. */
public enum Problems {

    BAD_REQUEST(HttpStatus.BAD_REQUEST, "bad-request", "Bad request"),
    LIMIT_EXCEEDED(HttpStatus.BAD_REQUEST, "limit-exceeded", "Ring limit exceeded"),
    UNAUTHORIZED(HttpStatus.UNAUTHORIZED, "unauthorized", "Admin token required"),
    FORBIDDEN(HttpStatus.FORBIDDEN, "forbidden", "Forbidden"),
    NODE_NOT_FOUND(HttpStatus.NOT_FOUND, "node-not-found", "Unknown node"),
    RING_NOT_FOUND(HttpStatus.NOT_FOUND, "ring-not-found", "Unknown ring"),
    RING_CONFLICT(HttpStatus.CONFLICT, "ring-conflict", "The ring cannot be made or deleted"),
    VERSION_NOT_FOUND(HttpStatus.NOT_FOUND, "version-not-found", "Unknown version"),
    NOT_FOUND(HttpStatus.NOT_FOUND, "not-found", "Not found"),
    METHOD_NOT_ALLOWED(HttpStatus.METHOD_NOT_ALLOWED, "method-not-allowed", "Method not allowed"),
    NOT_ACCEPTABLE(HttpStatus.NOT_ACCEPTABLE, "not-acceptable", "Not acceptable"),
    REQUEST_TIMEOUT(HttpStatus.REQUEST_TIMEOUT, "request-timeout", "Request timeout"),
    VERSION_WITHOUT_NODES(HttpStatus.CONFLICT, "version-without-nodes", "The version had no nodes"),
    BODY_TIMEOUT(HttpStatus.REQUEST_TIMEOUT, "body-timeout", "Body too slow"),
    VERSION_GONE(HttpStatus.GONE, "version-gone", "Version no longer kept"),
    PRECONDITION_FAILED(HttpStatus.PRECONDITION_FAILED, "precondition-failed", "The ring has moved on"),
    PAYLOAD_TOO_LARGE(HttpStatus.CONTENT_TOO_LARGE, "payload-too-large", "Body too large"),
    URI_TOO_LONG(HttpStatus.URI_TOO_LONG, "uri-too-long", "Request line too long"),
    UNSUPPORTED_MEDIA_TYPE(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type", "Unsupported content type"),
    UNSUPPORTED_CONTENT_ENCODING(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported-content-encoding",
            "Unsupported content encoding"),
    HEADERS_TOO_LARGE(HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "headers-too-large", "Request headers too large"),
    NO_NODES(HttpStatus.SERVICE_UNAVAILABLE, "no-nodes", "The ring has no nodes"),
    STORE_UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, "store-unavailable", "Store unavailable"),
    STORE_LOST(HttpStatus.SERVICE_UNAVAILABLE, "store-lost", "The store lost this ring"),
    RESEED_REFUSED(HttpStatus.CONFLICT, "reseed-refused", "The store holds a ring"),
    MOVED_SHARE_EXCEEDED(HttpStatus.CONFLICT, "moved-share-exceeded", "The change would move too much"),
    PLAN_NOT_FOUND(HttpStatus.NOT_FOUND, "plan-not-found", "Unknown plan"),
    PLAN_RUNNING(HttpStatus.CONFLICT, "plan-running", "A planned change holds the ring"),
    PLAN_STATE(HttpStatus.CONFLICT, "plan-state", "The plan is not in a state for this"),
    BUSY(HttpStatus.SERVICE_UNAVAILABLE, "busy", "At capacity"),
    SERVICE_UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, "service-unavailable", "Service unavailable"),
    NOT_IMPLEMENTED(HttpStatus.NOT_IMPLEMENTED, "not-implemented", "Not implemented"),
    INTERNAL(HttpStatus.INTERNAL_SERVER_ERROR, "internal", "Internal error"),
    /** Any other 4xx the container or framework answers: its status is kept. */
    CLIENT_ERROR(HttpStatus.BAD_REQUEST, "client-error", "Request refused"),
    /** Any other 5xx the container or framework answers: its status is kept. */
    SERVER_ERROR(HttpStatus.INTERNAL_SERVER_ERROR, "server-error", "Server error");

    /** The {@code Retry-After} of every {@link #BUSY} answer, in seconds. */
    public static final int RETRY_AFTER_SECONDS = 1;

    /** The prefix of every problem type URI. */
    public static final String TYPE_PREFIX = "urn:ringd:problem:";

    private final HttpStatus status;
    private final URI type;
    private final String title;

    Problems(HttpStatus status, String slug, String title) {
        this.status = status;
        this.type = URI.create(TYPE_PREFIX + slug);
        this.title = title;
    }

    public HttpStatus status() {
        return status;
    }

    public String title() {
        return title;
    }

    public URI type() {
        return type;
    }

    /** A problem detail of this type; {@code field} is left out when {@code null}. */
    public ProblemDetail detail(String detail, String field) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(status, detail);
        p.setType(type);
        p.setTitle(title);
        if (field != null) {
            p.setProperty("field", field);
        }
        return p;
    }

    /**
     * The type of a status the container or the framework answers with (a
     * 405, a 503 of the container...): a generic one, never one of the ring's
     * own causes such as {@link #NO_NODES}. Statuses without a type of their
     * own get {@link #CLIENT_ERROR} or {@link #SERVER_ERROR}, whose status the
     * caller keeps.
     */
    public static Problems forStatus(int status) {
        return switch (status) {
            case 400 -> BAD_REQUEST;
            case 401 -> UNAUTHORIZED;
            case 403 -> FORBIDDEN;
            case 404 -> NOT_FOUND;
            case 405 -> METHOD_NOT_ALLOWED;
            case 406 -> NOT_ACCEPTABLE;
            case 408 -> REQUEST_TIMEOUT;
            case 413 -> PAYLOAD_TOO_LARGE;
            case 414 -> URI_TOO_LONG;
            case 415 -> UNSUPPORTED_MEDIA_TYPE;
            case 431 -> HEADERS_TOO_LARGE;
            case 500 -> INTERNAL;
            case 501 -> NOT_IMPLEMENTED;
            case 503 -> SERVICE_UNAVAILABLE;
            default -> status >= 500 ? SERVER_ERROR : CLIENT_ERROR;
        };
    }

    /** A problem detail of the type for {@code status} ({@link #forStatus}), with that status. */
    public static ProblemDetail forStatus(int status, String detail) {
        ProblemDetail p = forStatus(status).detail(detail, null);
        p.setStatus(status);
        return p;
    }
}
