package io.ringd.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link RingPoints} against the ring's own lookups and an independent
 * recomputation of the labels, over seeded random memberships
 * ({@code -Dringd.seed=N} replays): the owning point and arc of many hash
 * values (0, 2^32-1 and the wrap arc included), labels that hash to their
 * point (a coarse hash makes vnodes collide), listed points, Maglev entries,
 * and slices that add up to the exact ownership.
 */
class RingPointsTest {

    private static final long SPACE = HashRing.HASH_SPACE;

    @ParameterizedTest
    @ValueSource(strings = {"md5", "murmur3", "sha256", "coarse"})
    void ownerOf_agreesWithRouteAndItsArcIsExact(String hashName) {
        long seed = RingTesting.seed("ownerOf_agreesWithRouteAndItsArcIsExact[" + hashName + "]");
        Random rnd = new Random(seed);
        KeyHash hash = RingTesting.hashNamed(hashName);
        for (int round = 0; round < 150; round++) {
            RingConfig config = new RingConfig(hash, 1 + rnd.nextInt(8));
            List<Node> members = RingTesting.randomMembers(rnd, 1 + rnd.nextInt(6));
            HashRing ring = HashRing.of(config, 0, members);
            String at = "seed " + seed + " round " + round + " " + members;
            int n = ring.pointCount();
            long[] probes = {0, SPACE - 1, ring.pointAt(0), ring.pointAt(n - 1), (ring.pointAt(n - 1) + 1) % SPACE,
                    rnd.nextLong(SPACE), rnd.nextLong(SPACE), rnd.nextLong(SPACE)};
            for (long h : probes) {
                RingPoints.PointOwner o = RingPoints.ownerOf(ring, h);
                assertThat(o.node()).as(at + " h " + h).isEqualTo(ring.routeHash(h));
                assertThat(o.point()).as(at).isEqualTo(ring.pointAt(o.index()));
                assertThat(o.end()).as(at).isEqualTo(o.point());
                assertThat(inArc(h, o.start(), o.end())).as(at + " h " + h + " in " + o).isTrue();
                assertThat(RingPoints.ownerOf(ring, o.start()).index()).as(at).isEqualTo(o.index());
                if (n > 1) {
                    long before = (o.start() - 1 + SPACE) % SPACE;
                    assertThat(RingPoints.ownerOf(ring, before).index()).as(at).isNotEqualTo(o.index());
                    assertThat(o.count()).as(at).isEqualTo((o.end() - o.start() + SPACE) % SPACE + 1);
                } else {
                    assertThat(o.count()).as(at).isEqualTo(SPACE);
                }
                checkLabel(ring, o.node(), o.point(), o.vnode(), at);
            }
            // the arcs of all points add up to the space, and per node to its ownership
            Map<String, Long> counts = new HashMap<>();
            long total = 0;
            for (int i = 0; i < n; i++) {
                RingPoints.PointOwner o = RingPoints.ownerOf(ring, ring.pointAt(i));
                assertThat(o.index()).as(at).isEqualTo(i);
                total += o.count();
                counts.merge(o.node(), o.count(), Long::sum);
            }
            assertThat(total).as(at).isEqualTo(SPACE);
            for (Ownership.Share s : ring.ownership().shares()) {
                assertThat(counts.getOrDefault(s.node().id(), 0L)).as(at + " " + s).isEqualTo(s.count());
            }
        }
    }

    @Test
    void ownerOf_theWrapArcRunsFromPastTheLastPointToTheFirst() {
        HashRing ring = HashRing.of(new RingConfig(RingTesting.table(Map.of("A#0", 100L, "B#0", 4_000_000_000L)), 1),
                0, List.of(Node.of("A", 1), Node.of("B", 1)));
        RingPoints.PointOwner wrap = RingPoints.ownerOf(ring, SPACE - 1);
        assertThat(wrap).isEqualTo(new RingPoints.PointOwner(0, 100, "A", "A#0", 4_000_000_001L, 100,
                SPACE - 4_000_000_000L + 100));
        assertThat(RingPoints.ownerOf(ring, 0)).isEqualTo(wrap);
        assertThat(RingPoints.ownerOf(ring, 101)).isEqualTo(new RingPoints.PointOwner(1, 4_000_000_000L, "B", "B#0",
                101, 4_000_000_000L, 4_000_000_000L - 100));
        HashRing one = HashRing.of(new RingConfig(RingTesting.table(Map.of("A#0", SPACE - 1)), 1), 0,
                List.of(Node.of("A", 1)));
        assertThat(RingPoints.ownerOf(one, 5)).isEqualTo(new RingPoints.PointOwner(0, SPACE - 1, "A", "A#0", 0,
                SPACE - 1, SPACE));
    }

    @Test
    void label_aCollisionBetweenNodesLeavesThePointAndItsLabelToTheSmallestId() {
        // A#1 and B#0 share a point, which A owns; B's own duplicates collapse to its smallest i.
        HashRing ring = HashRing.of(new RingConfig(RingTesting.table(Map.of("A#0", 10L, "A#1", 20L, "B#0", 20L,
                "B#1", 30L, "B#2", 30L)), 3), 0, List.of(Node.of("A", 2.0 / 3), Node.of("B", 1)));
        assertThat(RingPoints.points(ring)).containsExactly(new RingPoints.Point(10, "A", "A#0"),
                new RingPoints.Point(20, "A", "A#1"), new RingPoints.Point(30, "B", "B#1"));
        assertThat(RingPoints.ownerOf(ring, 25).vnode()).isEqualTo("B#1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"md5", "coarse"})
    void points_listsEveryPointWithItsOwnerAndALabelThatHashesToIt(String hashName) {
        long seed = RingTesting.seed("points_listsEveryPoint[" + hashName + "]");
        Random rnd = new Random(seed);
        for (int round = 0; round < 40; round++) {
            RingConfig config = new RingConfig(RingTesting.hashNamed(hashName), 1 + rnd.nextInt(16));
            HashRing ring = HashRing.of(config, 0, RingTesting.randomMembers(rnd, 1 + rnd.nextInt(8)));
            List<RingPoints.Point> points = RingPoints.points(ring);
            assertThat(points).hasSize(ring.pointCount());
            for (int i = 0; i < points.size(); i++) {
                RingPoints.Point p = points.get(i);
                assertThat(p.hash()).isEqualTo(ring.pointAt(i));
                assertThat(p.node()).isEqualTo(ring.ownerAt(i));
                assertThat(p.vnode()).isEqualTo(RingPoints.ownerOf(ring, p.hash()).vnode());
                checkLabel(ring, p.node(), p.hash(), p.vnode(), "seed " + seed + " round " + round);
            }
        }
    }

    @Test
    void ketama_labelsNameTheDigestAndThePointInIt() throws Exception {
        List<Node> members = List.of(Node.of("10.0.0.1:11211", 600), Node.of("10.0.0.2:11211", 300),
                Node.of("10.0.0.3:11211", 200));
        HashRing ring = HashRing.of(RingConfig.ketama(), 0, members);
        List<RingPoints.Point> points = RingPoints.points(ring);
        assertThat(points).hasSize(ring.pointCount());
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        for (RingPoints.Point p : points) {
            var m = java.util.regex.Pattern.compile("(.+)-(\\d+)\\[(\\d)]").matcher(p.vnode());
            assertThat(m.matches()).as(p.vnode()).isTrue();
            assertThat(m.group(1)).isEqualTo(p.node());
            byte[] d = md5.digest((m.group(1) + "-" + m.group(2)).getBytes(StandardCharsets.US_ASCII));
            int j = Integer.parseInt(m.group(3));
            long point = (d[4 * j + 3] & 0xffL) << 24 | (d[4 * j + 2] & 0xffL) << 16 | (d[4 * j + 1] & 0xffL) << 8
                    | (d[4 * j] & 0xffL);
            assertThat(point).as(p.vnode()).isEqualTo(p.hash());
        }
        RingPoints.PointOwner o = RingPoints.ownerOf(ring, ring.hash("user:42"));
        assertThat(o.node()).isEqualTo(ring.route("user:42"));
        assertThat(o.vnode()).isEqualTo(points.get(o.index()).vnode());
    }

    @Test
    void maglev_entryOfNamesTheEntryAndTheHashValuesItHolds() {
        long seed = RingTesting.seed("maglev_entryOf");
        Random rnd = new Random(seed);
        HashRing table = HashRing.of(RingConfig.maglev(KeyHashes.md5(), 1009), 0, RingTesting.randomMembers(rnd, 5));
        for (long h : new long[] {0, 1008, 1009, SPACE - 1, rnd.nextLong(SPACE), rnd.nextLong(SPACE)}) {
            RingPoints.TableEntry e = RingPoints.entryOf(table, h);
            assertThat(e.entry()).isEqualTo((int) (h % 1009));
            assertThat(e.node()).isEqualTo(table.routeHash(h));
            assertThat(e.first()).isEqualTo(e.entry());
            assertThat(e.last()).isLessThan(SPACE).isGreaterThan(SPACE - 1 - 1009);
            assertThat(e.last() % 1009).isEqualTo(e.entry());
            assertThat(e.count()).isEqualTo((e.last() - e.first()) / 1009 + 1);
        }
        List<String> entries = RingPoints.entries(table);
        assertThat(entries).hasSize(1009);
        for (int i = 0; i < 1009; i++) {
            assertThat(entries.get(i)).isEqualTo(table.ownerAt(i));
        }
        assertThatThrownBy(() -> RingPoints.ownerOf(table, 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> RingPoints.points(table)).isInstanceOf(UnsupportedOperationException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"md5", "coarse", "maglev"})
    void slices_addUpToTheExactOwnership(String kind) {
        long seed = RingTesting.seed("slices_addUpToTheExactOwnership[" + kind + "]");
        Random rnd = new Random(seed);
        for (int round = 0; round < 10; round++) {
            List<Node> members = RingTesting.randomMembers(rnd, 1 + rnd.nextInt(12));
            RingConfig config = kind.equals("maglev") ? RingConfig.maglev(KeyHashes.md5(), 1009)
                    : new RingConfig(RingTesting.hashNamed(kind), 1 + rnd.nextInt(64));
            HashRing ring = HashRing.of(config, 0, members);
            int count = 1 + rnd.nextInt(800);
            List<RingPoints.Slice> slices = RingPoints.slices(ring, count, members.size());
            long size = kind.equals("maglev") ? 1009 : SPACE;
            assertThat(slices).hasSize((int) Math.min(count, size));
            Map<String, Long> perNode = new HashMap<>();
            long next = 0;
            for (RingPoints.Slice s : slices) {
                assertThat(s.start()).isEqualTo(next);
                assertThat(s.othersCount()).isZero(); // top = every member
                long sum = s.owners().stream().mapToLong(RingPoints.Share::count).sum();
                assertThat(sum).isEqualTo(s.end() - s.start() + 1);
                s.owners().forEach(sh -> perNode.merge(sh.node(), sh.count(), Long::sum));
                next = s.end() + 1;
            }
            assertThat(next).isEqualTo(size);
            for (Ownership.Share s : ring.ownership().shares()) {
                long want = kind.equals("maglev") ? s.points() : s.count();
                assertThat(perNode.getOrDefault(s.node().id(), 0L)).as("seed %d %s", seed, s).isEqualTo(want);
            }
            // with a small top, the others are summed exactly and the largest owners come first
            for (RingPoints.Slice s : RingPoints.slices(ring, count, 1)) {
                assertThat(s.owners()).hasSize(1);
                assertThat(s.owners().get(0).count() + s.othersCount()).isEqualTo(s.end() - s.start() + 1);
            }
        }
    }

    private static boolean inArc(long h, long start, long end) {
        return start <= end ? h >= start && h <= end : h >= start || h <= end;
    }

    /** {@code label} is {@code node#i} with i below the node's point count, hashing to {@code point}, the first such. */
    private static void checkLabel(HashRing ring, String node, long point, String label, String at) {
        assertThat(label).as(at).startsWith(node + "#");
        long i = Long.parseLong(label.substring(node.length() + 1));
        long k = ring.node(node).orElseThrow().pointCount(ring.config().vnodesPerWeight());
        assertThat(i).as(at).isBetween(0L, k - 1);
        assertThat(ring.config().hash().hashUnsigned(label)).as(at + " " + label).isEqualTo(point);
        for (long j = 0; j < i; j++) {
            assertThat(ring.config().hash().hashUnsigned(node + "#" + j)).as(at + " smaller label").isNotEqualTo(point);
        }
    }
}
