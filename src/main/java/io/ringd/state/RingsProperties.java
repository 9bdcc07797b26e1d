package io.ringd.state;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Named rings (docs/ring.md section 22).
 *
 * @param max the most rings one ringd serves, {@code default} included (a {@code POST /rings} past it is 409)
 */
@ConfigurationProperties("ringd.rings")
public record RingsProperties(@DefaultValue("100") int max) {

    public RingsProperties {
        if (max < 1 || max > 10_000) {
            throw new IllegalArgumentException("ringd.rings.max must be from 1 to 10000: " + max);
        }
    }
}
