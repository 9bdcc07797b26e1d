package io.ringd.warmup;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The lookup warm-up that runs before readiness turns UP.
 *
 * @param enabled  whether it runs ({@code ringd.warmup.enabled}, default true)
 * @param duration how long it may take at most ({@code ringd.warmup.duration}, default 3s): the library
 *                 part takes a third of it, the HTTP part the rest
 */
@ConfigurationProperties("ringd.warmup")
public record WarmupProperties(@DefaultValue("true") boolean enabled, @DefaultValue("3s") Duration duration) {
}
