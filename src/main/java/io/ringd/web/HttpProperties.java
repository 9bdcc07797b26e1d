package io.ringd.web;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * How long a client may take to send its request, and how much of the
 * request bodies being received ringd holds at once (docs/settings.md).
 *
 * @param headerTimeout from the first byte of a request to the end of its headers; past it the connection is
 *                      closed
 * @param bodyTimeout   from the end of the headers to the end of the body; past it the request is refused
 *                      with 408 ({@code body-timeout}) and the connection closed
 * @param bodyMemory    the request-body bytes held at once for the requests whose bodies are arriving; a body
 *                      that would pass it is refused with 503 ({@code busy}, {@code Retry-After})
 */
@ConfigurationProperties("ringd.http")
public record HttpProperties(@DefaultValue("10s") Duration headerTimeout, @DefaultValue("10s") Duration bodyTimeout,
        @DefaultValue("64MB") DataSize bodyMemory, @DefaultValue("100") int acceptQueue) {

    public HttpProperties {
        check("ringd.http.header-timeout", headerTimeout);
        check("ringd.http.body-timeout", bodyTimeout);
        if (bodyMemory.toBytes() < 2 * RequestGuardFilter.MAX_BODY_BYTES
                || bodyMemory.toBytes() > DataSize.ofGigabytes(16).toBytes()) {
            throw new IllegalArgumentException("ringd.http.body-memory must be in [8MB, 16GB] (room for two bodies "
                    + "of the largest size): " + bodyMemory);
        }
        if (acceptQueue < 1 || acceptQueue > 65535) {
            throw new IllegalArgumentException("ringd.http.accept-queue must be in [1, 65535]: " + acceptQueue);
        }
    }

    private static void check(String name, Duration d) {
        if (d.compareTo(Duration.ofMillis(100)) < 0 || d.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new IllegalArgumentException(name + " must be in [100ms, 10m]: " + d);
        }
    }
}
