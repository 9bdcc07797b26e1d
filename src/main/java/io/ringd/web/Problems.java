package io.ringd.web;

import java.net.URI;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/** The problem types ringd answers with (RFC 9457), one per cause. */
public enum Problems {

    BAD_REQUEST(HttpStatus.BAD_REQUEST, "bad-request", "Bad request"),
    LIMIT_EXCEEDED(HttpStatus.BAD_REQUEST, "limit-exceeded", "Ring limit exceeded"),
    UNAUTHORIZED(HttpStatus.UNAUTHORIZED, "unauthorized", "Admin token required"),
    NODE_NOT_FOUND(HttpStatus.NOT_FOUND, "node-not-found", "Unknown node"),
    VERSION_NOT_FOUND(HttpStatus.NOT_FOUND, "version-not-found", "Unknown version"),
    NOT_FOUND(HttpStatus.NOT_FOUND, "not-found", "Not found"),
    METHOD_NOT_ALLOWED(HttpStatus.METHOD_NOT_ALLOWED, "method-not-allowed", "Method not allowed"),
    NOT_ACCEPTABLE(HttpStatus.NOT_ACCEPTABLE, "not-acceptable", "Not acceptable"),
    VERSION_GONE(HttpStatus.GONE, "version-gone", "Version no longer kept"),
    PRECONDITION_FAILED(HttpStatus.PRECONDITION_FAILED, "precondition-failed", "The ring has moved on"),
    PAYLOAD_TOO_LARGE(HttpStatus.CONTENT_TOO_LARGE, "payload-too-large", "Body too large"),
    UNSUPPORTED_MEDIA_TYPE(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type", "Unsupported content type"),
    NO_NODES(HttpStatus.SERVICE_UNAVAILABLE, "no-nodes", "The ring has no nodes"),
    STORE_UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, "store-unavailable", "Store unavailable"),
    BUSY(HttpStatus.SERVICE_UNAVAILABLE, "busy", "At capacity"),
    INTERNAL(HttpStatus.INTERNAL_SERVER_ERROR, "internal", "Internal error");

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

    /** The type for a status that none of ours names more precisely. */
    public static Problems forStatus(int status) {
        for (Problems p : values()) {
            if (p.status.value() == status && p != LIMIT_EXCEEDED && p != NODE_NOT_FOUND
                    && p != VERSION_NOT_FOUND && p != STORE_UNAVAILABLE && p != BUSY) {
                return p;
            }
        }
        return status >= 500 ? INTERNAL : BAD_REQUEST;
    }
}
