package io.ringd.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

class BackoffTest {

    private static final long MS = 1_000_000L;

    @Test
    void theCapDoubles_fromTheInitialDelay_upToTheMax() {
        Backoff b = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(3));
        assertThat(b.capNanos(0)).isEqualTo(100 * MS);
        assertThat(b.capNanos(1)).isEqualTo(200 * MS);
        assertThat(b.capNanos(4)).isEqualTo(1600 * MS);
        assertThat(b.capNanos(5)).isEqualTo(3000 * MS);
        assertThat(b.capNanos(62)).isEqualTo(3000 * MS);
        assertThat(b.capNanos(Integer.MAX_VALUE)).isEqualTo(3000 * MS);
    }

    @Test
    void delays_areJitteredBetweenHalfTheCapAndTheCap() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        Backoff b = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(30));
        for (int failures = 0; failures < 20; failures++) {
            long cap = b.capNanos(failures);
            Set<Long> seen = new HashSet<>();
            for (int i = 0; i < 200; i++) {
                long d = b.delayNanos(failures, random);
                assertThat(d).as("seed %d, failures %d", seed, failures).isBetween(cap / 2, cap);
                seen.add(d);
            }
            assertThat(seen).as("seed %d: jittered", seed).hasSizeGreaterThan(100);
        }
    }

    @Test
    void bounds_areChecked() {
        assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT0S");
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT1S");
    }
}
