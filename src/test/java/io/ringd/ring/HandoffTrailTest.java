package io.ringd.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link HandoffTrail#index()} against {@link HandoffIndex#of} over the
 * whole rings of the same versions: a follower's trail over random
 * histories (joins, removals, reweights, hashKey changes, batches, empty
 * rings, ring, ketama and Maglev placements, settings changes that leave no
 * common coordinate), its oldest versions dropped as a window would, and
 * gaps that start it again, must give the very same answers for keys, keys
 * with their hash and hash values, in every window. Plain JUnit over a
 * seeded {@link Random} ({@link RingTesting#seed}); the seed is in every
 * message.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HandoffTrailTest {

    private static final int ROUNDS = 120;
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aFollowersTrail_answersAsTheWholeRingsDo(boolean settingsChanges) {
        String name = "aFollowersTrail_answersAsTheWholeRingsDo[" + settingsChanges + "]";
        long seed = RingTesting.seed(name);
        Random rnd = new Random(seed);
        int checked = 0;
        int walked = 0;
        int moved = 0;
        for (int round = 0; round < ROUNDS; round++) {
            List<HashRing> all = new ArrayList<>();
            List<Instant> times = new ArrayList<>();
            chain(rnd, settingsChanges, all, times);
            int max = 2 + rnd.nextInt(10);
            HandoffTrail trail = null;
            List<HashRing> rings = new ArrayList<>();
            List<Instant> kept = new ArrayList<>();
            for (int i = 0; i < all.size(); i++) {
                if (trail != null && rnd.nextInt(12) == 0) {
                    i += 1 + rnd.nextInt(2); // a gap: the follower reloads a later version and starts again
                    if (i >= all.size()) {
                        break;
                    }
                    trail = null;
                }
                HashRing ring = all.get(i);
                if (trail == null) {
                    trail = HandoffTrail.of(ring, times.get(i));
                    rings.clear();
                    kept.clear();
                } else {
                    trail = trail.then(ring, times.get(i));
                }
                rings.add(ring);
                kept.add(times.get(i));
                int drop = Math.max(rings.size() - max, rnd.nextInt(8) == 0 ? rnd.nextInt(rings.size()) : 0);
                trail = trail.withoutOldest(drop);
                rings.subList(0, drop).clear();
                kept.subList(0, drop).clear();
                if (rnd.nextInt(3) == 0 || i == all.size() - 1) {
                    String at = "seed " + seed + " round " + round + " at v" + ring.version() + " " + trail + " "
                            + rings;
                    HandoffIndex whole = HandoffIndex.of(rings, kept);
                    moved += compare(rnd, trail, whole, rings, kept, at);
                    checked++;
                    walked += whole.indexed() ? 0 : 1;
                }
            }
        }
        assertThat(checked).as("seed " + seed + ": trails compared").isGreaterThan(ROUNDS);
        assertThat(moved).as("seed " + seed + ": moved answers compared").isGreaterThan(ROUNDS * 10);
        if (settingsChanges) {
            assertThat(walked).as("seed " + seed + ": trails walked").isPositive();
        }
    }

    /** A chain of consecutive versions (HandoffIndexTest's histories, two or three joined). */
    private static void chain(Random rnd, boolean settings, List<HashRing> rings, List<Instant> times) {
        HandoffIndexTest.History h = HandoffIndexTest.history(rnd, settings);
        rings.addAll(h.rings());
        times.addAll(h.times());
        HashRing ring = rings.get(rings.size() - 1);
        Instant t = T0.plusSeconds(100);
        for (int i = rnd.nextInt(20); i > 0; i--) {
            ring = HandoffIndexTest.step(rnd, ring, settings);
            t = t.plusMillis(rnd.nextInt(4) == 0 ? 0 : 1 + rnd.nextInt(5000));
            rings.add(ring);
            times.add(rnd.nextInt(25) == 0 ? null : t);
        }
    }

    /** Every accessor and many lookups alike; answers the number of non-null answers compared. */
    private static int compare(Random rnd, HandoffTrail trail, HandoffIndex whole, List<HashRing> rings,
            List<Instant> times, String at) {
        HandoffIndex index = trail.index();
        HashRing current = rings.get(rings.size() - 1);
        assertThat(trail.current()).as(at).isSameAs(current);
        assertThat(trail.versionCount()).as(at).isEqualTo(rings.size());
        assertThat(trail.oldestVersion()).as(at).isEqualTo(rings.get(0).version());
        assertThat(index.version()).as(at).isEqualTo(whole.version());
        assertThat(index.oldestVersion()).as(at).isEqualTo(whole.oldestVersion());
        assertThat(index.versionCount()).as(at).isEqualTo(whole.versionCount());
        assertThat(index.indexed()).as(at).isEqualTo(whole.indexed());
        assertThat(index.segmentCount()).as(at).isEqualTo(whole.segmentCount());
        for (int p = 0; p < rings.size(); p++) {
            long v = rings.get(p).version();
            assertThat(index.committedAt(v)).as(at).isEqualTo(whole.committedAt(v)).isEqualTo(times.get(p));
            assertThat(trail.committedAt(v)).as(at).isEqualTo(times.get(p));
        }
        int moved = 0;
        for (int w = 0; w < 3; w++) {
            Instant since = HandoffIndexTest.since(rnd, times);
            for (int i = 0; i < 40; i++) {
                String key = RingTesting.randomKey(rnd);
                Handoff want = whole.handoff(key, since);
                String where = at + " since " + since + " key " + key;
                assertThat(index.handoff(key, since)).as(where).isEqualTo(want);
                assertThat(index.handoff(key, current.hash(key), since)).as(where).isEqualTo(want);
                if (since == null) {
                    assertThat(index.handoff(key)).as(where).isEqualTo(want);
                }
                if (i % 8 == 0) { // and the rule itself, walked by brute force
                    assertThat(want).as(where).isEqualTo(HandoffIndexTest.oracle(rings, times, since,
                            r -> r.route(key)));
                }
                moved += want == null ? 0 : 1;
            }
            for (int i = 0; i < 40; i++) {
                long hash = RingTesting.edgyHash(rnd, rings);
                Handoff want = whole.handoffHash(hash, since);
                assertThat(index.handoffHash(hash, since)).as(at + " since " + since + " hash " + hash)
                        .isEqualTo(want);
                moved += want == null ? 0 : 1;
            }
        }
        return moved;
    }

    @Test
    void aLargeRing_keepsAFewKilobytesAVersion_andAnswersAsItsRings() {
        long seed = RingTesting.seed("aLargeRing_keepsAFewKilobytesAVersion_andAnswersAsItsRings");
        Random rnd = new Random(seed);
        List<Node> members = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            members.add(Node.of(String.format("node-%03d", i), 1));
        }
        HashRing ring = HashRing.of(RingConfig.defaults(), 7, members);
        List<HashRing> rings = new ArrayList<>(List.of(ring));
        List<Instant> times = new ArrayList<>(List.of(T0));
        HandoffTrail trail = HandoffTrail.of(ring, T0);
        long whole = 0;
        for (int v = 1; v <= 15; v++) {
            whole += ring.memoryBytes();
            ring = switch (v % 3) {
                case 1 -> ring.put(Node.of("joined-" + v, 1));
                case 2 -> ring.remove(String.format("node-%03d", v));
                default -> ring.put(Node.of(String.format("node-%03d", 100 - v), 2));
            };
            rings.add(ring);
            times.add(T0.plusSeconds(v));
            trail = trail.then(ring, T0.plusSeconds(v));
        }
        String at = "seed " + seed + " " + trail;
        assertThat(trail.memoryBytes()).as(at).isLessThan(whole / 20).isLessThan(128 * 1024);
        compare(rnd, trail, HandoffIndex.of(rings, times), rings, times, at);
        assertThat(trail.index().memoryBytes()).as("a trail's index walks nothing").isLessThan(200 * 1024);
    }

    @Test
    void nodesReplacedOnTheirOwnPoints_sameRangesOtherOwners() {
        long seed = RingTesting.seed("nodesReplacedOnTheirOwnPoints_sameRangesOtherOwners");
        Random rnd = new Random(seed);
        List<Node> members = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            members.add(Node.of(String.format("node-%03d", i), 1));
        }
        HashRing ring = HashRing.of(RingConfig.defaults(), 1, members);
        List<Change> replace = new ArrayList<>();
        for (int i = 0; i < 200; i += 2) { // every other node, by one whose points are the same: its hashKey
            String id = String.format("node-%03d", i);
            replace.add(Change.remove(id));
            replace.add(Change.put(new Node("new-" + id, 1, null, id)));
        }
        HashRing replaced = ring.apply(replace);
        assertThat(replaced.pointCount()).isEqualTo(ring.pointCount());
        for (int i = 0; i < ring.pointCount(); i++) {
            assertThat(replaced.pointAt(i)).as("point " + i).isEqualTo(ring.pointAt(i));
        }
        List<HashRing> rings = List.of(ring, replaced);
        List<Instant> times = List.of(T0, T0.plusSeconds(1));
        HandoffTrail trail = HandoffTrail.of(ring, T0).then(replaced, T0.plusSeconds(1));
        compare(rnd, trail, HandoffIndex.of(rings, times), rings, times, "seed " + seed + " " + trail);
    }

    @Test
    void refusesAGap_andDropsNoMoreThanTheOlderVersions() {
        HashRing a = HashRing.of(RingConfig.defaults(), 3, List.of(Node.of("a", 1)));
        HashRing c = HashRing.of(RingConfig.defaults(), 5, List.of(Node.of("a", 1)));
        HandoffTrail t = HandoffTrail.of(a, T0);
        assertThatThrownBy(() -> t.then(c, T0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("3 then 5");
        assertThatThrownBy(() -> t.withoutOldest(1)).isInstanceOf(IllegalArgumentException.class);
        HandoffTrail two = t.then(a.put(Node.of("b", 1)), T0.plusSeconds(1));
        assertThat(two.withoutOldest(1).versionCount()).isEqualTo(1);
        assertThat(two.withoutOldest(1).oldestVersion()).isEqualTo(4);
        assertThat(two.withoutOldest(0)).isSameAs(two);
        assertThat(two.index().versionCount()).isEqualTo(2);
    }
}
