package io.ringd.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link HandoffIndex} against the rule of docs/ring.md section 21 walked
 * by brute force: for each key or hash value, its owner at every kept
 * version from its own {@code route}, then movedAt and previous as the
 * section words them. Random histories of joins, removals, reweights,
 * hashKey changes, batches, empty rings and settings changes, for every
 * placement, with random windows. Plain JUnit over a seeded {@link Random}
 * ({@link RingTesting#seed}); the seed is in every message.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HandoffIndexTest {

    private static final int ROUNDS = 150;
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    // ------------------------------------------------------------ the oracle

    /**
     * The section's rule, literally: walk back from the newest version
     * through those committed at or after {@code since} ({@code null}: all);
     * the version before the oldest of them, when kept, is the state the
     * window starts from; the oldest kept version's own change is unknown.
     */
    static Handoff oracle(List<HashRing> rings, List<Instant> times, Instant since,
            Function<HashRing, String> ownerAt) {
        int n = rings.size();
        int oldestWithin = n;
        for (int p = n - 1; p >= 0; p--) {
            Instant t = times.get(p);
            boolean within = since == null || (t != null && !t.isBefore(since));
            if (!within) {
                break;
            }
            oldestWithin = p;
        }
        if (oldestWithin == n) {
            return null; // nothing committed within the window: no owner changed in it
        }
        int from = Math.max(0, oldestWithin - 1);
        List<String> owner = new ArrayList<>();
        for (HashRing r : rings) {
            owner.add(r.isEmpty() ? null : ownerAt.apply(r));
        }
        int movedAt = -1;
        for (int v = n - 1; v > from; v--) {
            if (!java.util.Objects.equals(owner.get(v), owner.get(v - 1))) {
                movedAt = v;
                break;
            }
        }
        if (movedAt < 0) {
            return null;
        }
        String now = owner.get(n - 1);
        LinkedHashSet<String> previous = new LinkedHashSet<>();
        for (int v = movedAt - 1; v >= from; v--) {
            String o = owner.get(v);
            if (o != null && !o.equals(now)) {
                previous.add(o);
            }
        }
        List<String> first8 = new ArrayList<>(previous).subList(0, Math.min(8, previous.size()));
        return new Handoff(rings.get(movedAt).version(), times.get(movedAt), first8);
    }

    // ------------------------------------------------------------ histories

    /** A random placement config: ring (every hash), ketama (every flavor), or a small Maglev table. */
    static RingConfig randomConfig(Random rnd) {
        switch (rnd.nextInt(7)) {
            case 0:
                return RingConfig.ketama(KetamaFlavor.values()[rnd.nextInt(KetamaFlavor.values().length)]);
            case 1:
                return RingConfig.maglev(KeyHashes.md5(), new int[] {101, 211, 1009}[rnd.nextInt(3)]);
            case 2:
                return RingConfig.maglev(KeyHashes.murmur3(), 211);
            case 3:
                return new RingConfig(RingTesting.COARSE, 1 + rnd.nextInt(4));
            default:
                String[] names = {"md5", "murmur3", "sha256"};
                return RingConfig.of(names[rnd.nextInt(3)], 1 + rnd.nextInt(8));
        }
    }

    /** The next version: a join, a removal, a reweight, a hashKey change, a batch, all gone, or new settings. */
    static HashRing step(Random rnd, HashRing ring, boolean settings) {
        while (true) {
            HashRing next = tryStep(rnd, ring, settings);
            if (next.version() == ring.version() + 1) {
                return next;
            }
        }
    }

    private static HashRing tryStep(Random rnd, HashRing ring, boolean settings) {
        List<Node> nodes = ring.nodes();
        int pick = rnd.nextInt(settings ? 9 : 8);
        if (pick == 8) {
            return ring.withConfig(rnd.nextInt(3) == 0 ? sameKind(rnd, ring.config()) : randomConfig(rnd));
        }
        if (nodes.isEmpty() || pick <= 1) {
            String id = RingTesting.randomId(rnd);
            return ring.put(maybeHashKey(rnd, RingTesting.randomNode(rnd, id)));
        }
        Node some = nodes.get(rnd.nextInt(nodes.size()));
        switch (pick) {
            case 2:
            case 3:
                return ring.remove(some.id());
            case 4:
                return ring.put(new Node(some.id(), RingTesting.randomWeight(rnd), some.zone(), some.hashKey()));
            case 5:
                return ring.put(new Node(some.id(), some.weight(), some.zone(),
                        rnd.nextBoolean() ? null : "hk/" + some.id() + "/" + rnd.nextInt(1000)));
            case 6: { // everything goes: an empty ring in the history
                List<Change> all = new ArrayList<>();
                for (Node n : nodes) {
                    all.add(Change.remove(n.id()));
                }
                return ring.apply(all);
            }
            default: { // a batch: a join and a reweight or removal at once
                List<Change> batch = new ArrayList<>();
                String id = RingTesting.randomId(rnd);
                if (!ring.contains(id)) {
                    batch.add(Change.put(maybeHashKey(rnd, RingTesting.randomNode(rnd, id))));
                }
                if (!some.id().equals(id)) {
                    batch.add(rnd.nextBoolean() ? Change.remove(some.id())
                            : Change.put(new Node(some.id(), RingTesting.randomWeight(rnd), some.zone())));
                }
                return batch.isEmpty() ? ring : ring.apply(batch);
            }
        }
    }

    /** The same kind of placement with another setting: points per weight, or the ketama flavor. */
    private static RingConfig sameKind(Random rnd, RingConfig c) {
        return switch (c.algorithm()) {
            case RING -> new RingConfig(c.hash(), 1 + rnd.nextInt(8));
            case KETAMA -> RingConfig.ketama(KetamaFlavor.values()[rnd.nextInt(KetamaFlavor.values().length)]);
            case MAGLEV -> RingConfig.maglev(c.hash(), c.maglevTableSize());
        };
    }

    private static Node maybeHashKey(Random rnd, Node n) {
        return rnd.nextInt(3) == 0 ? new Node(n.id(), n.weight(), n.zone(), "hk/" + n.id()) : n;
    }

    /** A history: a random first ring (sometimes empty), then steps, with commit times a few seconds apart. */
    record History(List<HashRing> rings, List<Instant> times) {
    }

    static History history(Random rnd, boolean settings) {
        RingConfig config = randomConfig(rnd);
        long start = rnd.nextInt(50);
        HashRing ring = rnd.nextInt(5) == 0 ? HashRing.of(config, start, List.of())
                : HashRing.of(config, start, RingTesting.randomMembers(rnd, 1 + rnd.nextInt(6)));
        List<HashRing> rings = new ArrayList<>(List.of(ring));
        List<Instant> times = new ArrayList<>(List.of(T0));
        int steps = rnd.nextInt(14);
        Instant t = T0;
        for (int i = 0; i < steps; i++) {
            ring = step(rnd, ring, settings);
            t = t.plusMillis(rnd.nextInt(4) == 0 ? 0 : 1 + rnd.nextInt(5000));
            rings.add(ring);
            times.add(rnd.nextInt(25) == 0 ? null : t); // now and then a version of unknown commit time
        }
        return new History(rings, times);
    }

    /** A window start: none, before everything, on a commit, between two, or past the newest. */
    static Instant since(Random rnd, List<Instant> times) {
        Instant some = times.get(rnd.nextInt(times.size()));
        if (some == null) {
            some = T0;
        }
        return switch (rnd.nextInt(5)) {
            case 0 -> null;
            case 1 -> T0.minusSeconds(1);
            case 2 -> some;
            case 3 -> some.plusMillis(1);
            default -> some.minusMillis(1);
        };
    }

    // ------------------------------------------------------------ properties

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void everyKeyAndHash_matchesTheBruteForceWalk(boolean settingsChanges) {
        long seed = RingTesting.seed("everyKeyAndHash_matchesTheBruteForceWalk[" + settingsChanges + "]");
        Random rnd = new Random(seed);
        int moved = 0;
        int walked = 0;
        for (int round = 0; round < ROUNDS; round++) {
            History h = history(rnd, settingsChanges);
            HandoffIndex index = HandoffIndex.of(h.rings(), h.times());
            if (!index.indexed()) {
                walked++;
            }
            HashRing current = h.rings().get(h.rings().size() - 1);
            String at = "seed " + seed + " round " + round + " " + index + " " + h.rings();
            assertThat(index.version()).as(at).isEqualTo(current.version());
            assertThat(index.oldestVersion()).as(at).isEqualTo(h.rings().get(0).version());
            for (int w = 0; w < 4; w++) {
                Instant since = since(rnd, h.times());
                for (int i = 0; i < 60; i++) {
                    String key = RingTesting.randomKey(rnd);
                    Handoff expected = oracle(h.rings(), h.times(), since, r -> r.route(key));
                    String where = at + " since " + since + " key " + key;
                    assertThat(index.handoff(key, since)).as(where).isEqualTo(expected);
                    assertThat(index.handoff(key, current.hash(key), since)).as(where).isEqualTo(expected);
                    if (since == null) {
                        assertThat(index.handoff(key)).as(where).isEqualTo(expected);
                    }
                    if (expected != null) {
                        moved++;
                        assertThat(expected.previous()).as(where).doesNotContainNull()
                                .doesNotHaveDuplicates().hasSizeLessThanOrEqualTo(8);
                        if (!current.isEmpty()) {
                            assertThat(expected.previous()).as(where).doesNotContain(current.route(key));
                        }
                    }
                }
                for (int i = 0; i < 60; i++) {
                    long hash = RingTesting.edgyHash(rnd, h.rings());
                    Handoff expected = oracle(h.rings(), h.times(), since, r -> r.routeHash(hash));
                    assertThat(index.handoffHash(hash, since)).as(at + " since " + since + " hash " + hash)
                            .isEqualTo(expected);
                }
            }
        }
        assertThat(moved).as("seed " + seed + ": keys that moved").isGreaterThan(ROUNDS);
        if (settingsChanges) {
            assertThat(walked).as("seed " + seed + ": histories walked").isPositive();
        }
    }

    @Test
    void manyOwners_listsTheNewestEightDistinct_andNeverTheCurrentOwner() {
        long seed = RingTesting.seed("manyOwners_listsTheNewestEightDistinct_andNeverTheCurrentOwner");
        Random rnd = new Random(seed);
        // one node at a time, replaced each version: every key changes owner at every version
        HashRing ring = HashRing.of(RingConfig.defaults(), 0, List.of(Node.of("n0", 1)));
        List<HashRing> rings = new ArrayList<>(List.of(ring));
        List<Instant> times = new ArrayList<>(List.of(T0));
        for (int v = 1; v <= 14; v++) {
            String id = "n" + (v % 11); // n0 .. n10, then n0 again: the current owner was an owner before
            ring = ring.apply(List.of(Change.remove(ring.nodes().get(0).id()), Change.put(Node.of(id, 1))));
            rings.add(ring);
            times.add(T0.plusSeconds(v));
        }
        HandoffIndex index = HandoffIndex.of(rings, times);
        String key = "user:" + rnd.nextInt(1000);
        Handoff h = index.handoff(key);
        assertThat(h.movedAt()).as("seed " + seed).isEqualTo(14);
        assertThat(h.movedAtTime()).isEqualTo(T0.plusSeconds(14));
        // owners walking back from 13: n2, n1, n0, n10, n9, ... ; n3 (current) never
        assertThat(h.previous()).containsExactly("n2", "n1", "n0", "n10", "n9", "n8", "n7", "n6");
        assertThat(index.indexed()).isTrue();
        // a window from version 12 on: owners at 12 and 13 only
        assertThat(index.handoff(key, T0.plusSeconds(13)).previous()).containsExactly("n2", "n1");
        assertThat(index.handoff(key, T0.plusSeconds(15))).isNull();
    }

    @Test
    void fromAnEmptyRing_previousIsEmpty_andTheOldestKeptVersionIsNoMove() {
        HashRing empty = HashRing.of(RingConfig.defaults(), 4, List.of());
        HashRing one = empty.put(Node.of("a", 1));
        HashRing two = one.put(Node.of("b", 1));
        HandoffIndex index = HandoffIndex.of(List.of(empty, one, two), List.of(T0, T0.plusSeconds(1),
                T0.plusSeconds(2)));
        String movedToB = null;
        String stayedOnA = null;
        for (int i = 0; movedToB == null || stayedOnA == null; i++) {
            String key = "k" + i;
            if (two.route(key).equals("b")) {
                movedToB = key;
            } else {
                stayedOnA = key;
            }
        }
        assertThat(index.handoff(movedToB)).isEqualTo(new Handoff(6, T0.plusSeconds(2), List.of("a")));
        assertThat(index.handoff(stayedOnA)).isEqualTo(new Handoff(5, T0.plusSeconds(1), List.of()));
        // a window holding only version 6: the owner at 5 is where it starts from
        assertThat(index.handoff(stayedOnA, T0.plusSeconds(2))).isNull();
        assertThat(index.handoff(movedToB, T0.plusSeconds(2))).isEqualTo(
                new Handoff(6, T0.plusSeconds(2), List.of("a")));
        // the oldest version held is where the walk stops: its own change (from 3) is not known
        HandoffIndex fromOne = HandoffIndex.of(List.of(one, two), List.of(T0.plusSeconds(1), T0.plusSeconds(2)));
        assertThat(fromOne.handoff(stayedOnA)).isNull();
        assertThat(fromOne.handoff(movedToB)).isEqualTo(new Handoff(6, T0.plusSeconds(2), List.of("a")));
        // one version alone: nothing moved
        assertThat(HandoffIndex.of(List.of(two), java.util.Collections.singletonList(null)).handoff("x")).isNull();
    }

    @Test
    void aFullWindow_allocatesNoAnswer_andAShortOneCopiesAPrefix() {
        Random rnd = new Random(RingTesting.seed("aFullWindow_allocatesNoAnswer_andAShortOneCopiesAPrefix"));
        HashRing ring = HashRing.of(RingConfig.defaults(), 0, RingTesting.randomMembers(rnd, 5));
        List<HashRing> rings = new ArrayList<>(List.of(ring));
        List<Instant> times = new ArrayList<>(List.of(T0));
        for (int v = 1; v <= 10; v++) {
            ring = step(rnd, ring, false);
            rings.add(ring);
            times.add(T0.plusSeconds(v));
        }
        HandoffIndex index = HandoffIndex.of(rings, times);
        for (int i = 0; i < 200; i++) {
            Handoff a = index.handoff("k" + i);
            if (a != null) {
                assertThat(index.handoff("k" + i)).isSameAs(a);
            }
        }
        assertThat(index.memoryBytes()).isPositive();
        assertThat(index.segmentCount()).isPositive();
    }

    @Test
    void builder_refusesAGapInTheVersions_andAnEmptyIndex() {
        HashRing a = HashRing.of(RingConfig.defaults(), 3, List.of(Node.of("a", 1)));
        HashRing c = HashRing.of(RingConfig.defaults(), 5, List.of(Node.of("a", 1)));
        assertThatThrownBy(() -> HandoffIndex.builder().add(a, T0).add(c, T0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3 then 5");
        assertThatThrownBy(() -> HandoffIndex.builder().build()).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> HandoffIndex.of(List.of(a), List.of(T0)).handoffHash(1L << 32, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("4294967296");
    }

    @Test
    void aChangeOfTableSize_isWalked_andStillExact() {
        Random rnd = new Random(RingTesting.seed("aChangeOfTableSize_isWalked_andStillExact"));
        HashRing ring = HashRing.of(RingConfig.maglev(KeyHashes.md5(), 211), 0, RingTesting.randomMembers(rnd, 4));
        HashRing bigger = ring.withConfig(RingConfig.maglev(KeyHashes.md5(), 1009));
        HashRing more = bigger.put(Node.of("zz", 1));
        List<HashRing> rings = List.of(ring, bigger, more);
        List<Instant> times = List.of(T0, T0.plusSeconds(1), T0.plusSeconds(2));
        HandoffIndex index = HandoffIndex.of(rings, times);
        assertThat(index.indexed()).isFalse();
        assertThat(index.toString()).contains("walked");
        Map<String, Handoff> seen = new TreeMap<>();
        for (int i = 0; i < 500; i++) {
            String key = "key" + i;
            Handoff expected = oracle(rings, times, null, r -> r.route(key));
            assertThat(index.handoff(key)).as(key).isEqualTo(expected);
            seen.put(key, expected);
        }
        assertThat(seen.values()).anyMatch(h -> h != null && h.movedAt() == 2)
                .anyMatch(h -> h != null && h.movedAt() == 1);
    }
}
