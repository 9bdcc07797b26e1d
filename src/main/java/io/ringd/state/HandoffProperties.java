package io.ringd.state;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How far back {@code ?handoff=true} looks (docs/ring.md section 21).
 *
 * @param window the longest window: versions committed this long ago or later count, at most the kept
 *               history; a request may ask for a shorter one with {@code ?window=}. From 1 s to 7 days.
 */
@ConfigurationProperties("ringd.handoff")
public record HandoffProperties(@DefaultValue("10m") Duration window) {

    public static final Duration MAX_WINDOW = Duration.ofDays(7);

    public HandoffProperties {
        if (window == null || window.compareTo(Duration.ofSeconds(1)) < 0 || window.compareTo(MAX_WINDOW) > 0) {
            throw new IllegalArgumentException("ringd.handoff.window must be from 1s to 7d: " + window);
        }
    }
}
