package io.ringd.state;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How many versions the ring keeps for {@code ?version=} and {@code /diff}.
 *
 * @param versions versions kept, the current one included; at least 101 (the last 100 and the current)
 */
@ConfigurationProperties("ringd.history")
public record HistoryProperties(@DefaultValue("128") int versions) {

    public static final int MIN_VERSIONS = 101;

    public HistoryProperties {
        if (versions < MIN_VERSIONS || versions > 100_000) {
            throw new IllegalArgumentException("ringd.history.versions must be in [101, 100000]: " + versions);
        }
    }
}
