package io.ringd.state;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The movement guard of every membership and settings write (docs/ring.md
 * section 17): a write that would move more than {@code maxMovedShare} of the
 * hash space is refused unless it is forced ({@code ?force=true}).
 *
 * @param maxMovedShare the largest share of the hash space one write may move, in {@code (0, 1]}; 1 (the
 *                      default) is off: no write can move more, so nothing is computed
 */
@ConfigurationProperties("ringd.guard")
public record GuardProperties(@DefaultValue("1") double maxMovedShare) {

    public GuardProperties {
        // written so that NaN is refused too
        if (!(maxMovedShare > 0 && maxMovedShare <= 1)) {
            throw new IllegalArgumentException("ringd.guard.max-moved-share must be in (0, 1], 1 for off: "
                    + maxMovedShare);
        }
    }

    /** The guard these properties describe. */
    public MovementGuard guard() {
        return MovementGuard.of(maxMovedShare);
    }
}
