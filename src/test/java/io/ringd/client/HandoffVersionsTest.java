package io.ringd.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.ringd.ring.HandoffIndex;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;

/**
 * {@link HandoffVersions} as the follower thread drives it: over random
 * one-node changes, gaps, new incarnations and commit times that leave the
 * window, it keeps the versions the window needs (those committed within it
 * and the one before, at most maxVersions), as whole rings kept by the rule
 * would be, answers as {@link HandoffIndex#of} over those rings, and says
 * in {@link HandoffHistory} how many, from which, and far fewer bytes than
 * the rings. Seeded ({@code -Dringd.seed}); the seed is in every message.
 */
class HandoffVersionsTest {

    private static final Duration WINDOW = Duration.ofMinutes(10);

    @Test
    void keepsWhatTheWindowNeeds_andAnswersAsTheWholeRings() {
        String given = System.getProperty("ringd.seed");
        long seed = given == null || given.isBlank() ? 20260214L : Long.parseLong(given.trim());
        Random rnd = new Random(seed);
        for (int round = 0; round < 12; round++) {
            int max = 2 + rnd.nextInt(16);
            HandoffVersions versions = new HandoffVersions(WINDOW, max);
            List<HashRing> rings = new ArrayList<>(); // the versions kept whole, by the rule
            List<Instant> times = new ArrayList<>();
            List<Node> members = new ArrayList<>();
            for (int i = 0; i < 20 + rnd.nextInt(20); i++) {
                members.add(Node.of("n" + i, 1));
            }
            HashRing ring = HashRing.of(RingConfig.defaults(), 1 + rnd.nextInt(5), members);
            Instant t = Instant.now().minus(Duration.ofMinutes(15 + rnd.nextInt(10)));
            RingClient.Held held = null;
            String incarnation = "a";
            for (int step = 0; step < 40; step++) {
                int pick = rnd.nextInt(20);
                if (pick == 0) {
                    ring = HashRing.of(ring.config(), ring.version() + 2 + rnd.nextInt(3), ring.nodes()); // a gap
                } else if (pick == 1) {
                    incarnation = incarnation + "b"; // made again, as the same version
                } else {
                    String id = "x" + rnd.nextInt(60);
                    ring = ring.contains(id) && ring.nodeCount() > 1 ? ring.remove(id) : ring.put(Node.of(id, 1));
                }
                t = t.plusSeconds(rnd.nextInt(120));
                Instant committed = rnd.nextInt(15) == 0 ? null : t;
                boolean follows = !rings.isEmpty() && held != null
                        && rings.get(rings.size() - 1).version() + 1 == ring.version()
                        && Objects.equals(held.incarnation(), incarnation);
                if (!follows) {
                    rings.clear();
                    times.clear();
                }
                rings.add(ring);
                times.add(committed);
                trim(rings, times, max);
                HandoffVersions.Kept kept = versions.keep(held, ring, committed, incarnation);
                held = new RingClient.Held(ring, committed, incarnation, kept);
                String at = "seed " + seed + " round " + round + " step " + step + " v" + ring.version();
                HandoffHistory history = kept.history();
                assertThat(history.versions()).as(at).isEqualTo(rings.size());
                assertThat(history.oldestVersion()).as(at).isEqualTo(rings.get(0).version());
                long whole = 0;
                for (int p = 0; p < rings.size() - 1; p++) {
                    whole += rings.get(p).memoryBytes();
                }
                assertThat(history.bytes()).as(at).isPositive();
                if (rings.size() > 2) {
                    assertThat(history.bytes()).as(at + ": less than the rings").isLessThan(whole);
                }
                if (rnd.nextInt(4) == 0) {
                    HandoffIndex want = HandoffIndex.of(rings, times);
                    Instant since = Instant.now().minus(WINDOW);
                    for (int k = 0; k < 300; k++) {
                        String key = "key:" + rnd.nextInt(1_000_000);
                        assertThat(versions.handoff(kept, key)).as(at + " key " + key)
                                .isEqualTo(want.handoff(key, since));
                    }
                    assertThat(kept.history().bytes()).as(at + ": with the index")
                            .isGreaterThanOrEqualTo(history.bytes())
                            .isGreaterThan(kept.index().memoryBytes());
                }
            }
        }
    }

    /** The rule the client keeps versions by: at most max, the oldest while the next is within the window. */
    private static void trim(List<HashRing> rings, List<Instant> times, int max) {
        while (rings.size() > max) {
            rings.remove(0);
            times.remove(0);
        }
        Instant since = Instant.now().minus(WINDOW);
        while (rings.size() > 1 && (times.get(1) == null || times.get(1).isBefore(since))) {
            rings.remove(0);
            times.remove(0);
        }
    }
}
