package io.ringd.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Diffs when a Maglev table is involved are exact in counts and flows:
 * table against table (same size: entry by entry; different sizes: by the
 * Chinese remainder theorem), ring against table (every arc against every
 * entry by floor division), from and to empty, each with both of
 * {@link TableDiff}'s counting methods forced and with the cheaper one.
 */
class MaglevDiffTest {

    private static RingConfig maglev(int m) {
        return RingConfig.of("md5", 128, "maglev", m);
    }

    @ParameterizedTest
    @EnumSource(TableDiff.Method.class)
    void sameSize_flowsAreExactEntryByEntry(TableDiff.Method method) {
        long seed = RingTesting.seed("sameSize_flowsAreExactEntryByEntry[" + method + "]");
        Random rnd = new Random(seed);
        for (int round = 0; round < 150; round++) {
            int m = new int[] {13, 101, 1009}[rnd.nextInt(3)];
            List<Node> members = RingTesting.randomMembers(rnd, 1 + rnd.nextInt(8));
            HashRing before = HashRing.of(maglev(m), 0, members);
            HashRing after = before.apply(randomChanges(rnd, before));
            String at = "seed " + seed + " round " + round + " M " + m + " " + members + " -> " + after.nodes();
            Map<String, Long> want = after.isEmpty() ? wholeSpace(before, true)
                    : PlacementOracles.tableFlows(PlacementOracles.tableOf(before), PlacementOracles.tableOf(after));
            checkDiff(RingDiff.betweenTables(before, after, method), want, at);
        }
    }

    @ParameterizedTest
    @EnumSource(TableDiff.Method.class)
    void differentSizes_flowsAreExactByTheChineseRemainderTheorem(TableDiff.Method method) {
        long seed = RingTesting.seed("differentSizes_flowsAreExact[" + method + "]");
        Random rnd = new Random(seed);
        int[][] sizes = {{1009, 1013}, {1013, 1009}, {13, 1009}, {1009, 13}, {2, 3}, {101, 103}, {3, 1021}};
        for (int round = 0; round < 28; round++) {
            int[] mm = sizes[round % sizes.length];
            List<Node> members = RingTesting.randomMembers(rnd, 1 + rnd.nextInt(8));
            HashRing a = HashRing.of(maglev(mm[0]), 0, members);
            HashRing b = rnd.nextBoolean() ? a.withConfig(maglev(mm[1]))
                    : HashRing.of(maglev(mm[1]), 1, RingTesting.randomMembers(rnd, 1 + rnd.nextInt(8)));
            String at = "seed " + seed + " round " + round + " M " + mm[0] + " -> " + mm[1] + " " + a.nodes()
                    + " -> " + b.nodes();
            checkDiff(RingDiff.betweenTables(a, b, method), PlacementOracles.tableFlowsByCrt(
                    PlacementOracles.tableOf(a), PlacementOracles.tableOf(b)), at);
        }
    }

    @ParameterizedTest
    @EnumSource(TableDiff.Method.class)
    void ringAgainstTable_flowsAreExactArcByArcEntryByEntry(TableDiff.Method method) {
        long seed = RingTesting.seed("ringAgainstTable_flowsAreExact[" + method + "]");
        Random rnd = new Random(seed);
        for (int round = 0; round < 60; round++) {
            int m = new int[] {2, 13, 101, 1009}[rnd.nextInt(4)];
            List<Node> members = RingTesting.randomMembers(rnd, 1 + rnd.nextInt(6));
            String hashName = new String[] {"md5", "murmur3", "coarse", "ketama"}[rnd.nextInt(4)];
            RingConfig ringConfig = hashName.equals("ketama") ? RingConfig.ketama()
                    : new RingConfig(RingTesting.hashNamed(hashName), 1 + rnd.nextInt(8));
            HashRing ring = HashRing.of(ringConfig, 0, members);
            HashRing table = rnd.nextBoolean() ? ring.withConfig(maglev(m))
                    : HashRing.of(maglev(m), 1, RingTesting.randomMembers(rnd, 1 + rnd.nextInt(6)));
            String at = "seed " + seed + " round " + round + " " + hashName + " M " + m + " " + ring.nodes()
                    + " -> " + table.nodes();
            TreeMap<Long, String> points = PlacementOracles.ringOf(ring);
            String[] entries = PlacementOracles.tableOf(table);
            checkDiff(RingDiff.betweenTables(ring, table, method),
                    PlacementOracles.ringToTableFlows(points, entries, false), at);
            checkDiff(RingDiff.betweenTables(table, ring, method),
                    PlacementOracles.ringToTableFlows(points, entries, true), at + " (reversed)");
        }
    }

    @Test
    void emptyAgainstTable_theWholeSpaceMovesFromOrToNull() {
        HashRing empty = HashRing.empty(maglev(1009));
        HashRing table = empty.apply(List.of(Change.put(Node.of("a", 1)), Change.put(Node.of("b", 3))));
        checkDiff(HashRing.diff(empty, table), wholeSpace(table, false), "from empty");
        checkDiff(HashRing.diff(table, empty), wholeSpace(table, true), "to empty");
        checkDiff(HashRing.diff(HashRing.empty(), table), wholeSpace(table, false), "from an empty ring");
        checkDiff(HashRing.diff(table, table.remove("a").remove("b")), wholeSpace(table, true), "emptied");
        assertThat(HashRing.diff(empty, HashRing.empty()).movedCount()).isZero();
        assertThat(HashRing.diff(table, table).movedCount()).isZero();
        assertThat(HashRing.diff(table, table).flows()).isEmpty();
    }

    @Test
    void addingANode_movesValuesToItMostly_andTheDiffSaysExactlyHowMuchElse() {
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            nodes.add(Node.of("node-" + i, 1));
        }
        HashRing before = HashRing.of(maglev(65537), 0, nodes);
        HashRing after = before.put(Node.of("node-10", 1));
        RingDiff diff = HashRing.diff(before, after);
        Map<String, Long> want = PlacementOracles.tableFlows(PlacementOracles.tableOf(before),
                PlacementOracles.tableOf(after));
        checkDiff(diff, want, "add node-10");
        long toNew = diff.flows().stream().filter(f -> f.to().equals("node-10")).mapToLong(RingDiff.Flow::count).sum();
        assertThat(toNew).isEqualTo(after.ownership().shares().get(2).count()); // node-10 sorts third
        assertThat(diff.movedCount()).as("Maglev is not minimal: some values move between old nodes")
                .isGreaterThan(toNew);
        assertThat((double) diff.movedCount() / HashRing.HASH_SPACE).isLessThan(0.2);
    }

    @Test
    void defaultSizes_cheaperMethodAgreesWithTheOthers() {
        Random rnd = new Random(RingTesting.seed("defaultSizes_cheaperMethodAgreesWithTheOthers"));
        List<Node> members = RingTesting.randomMembers(rnd, 30);
        HashRing ring = HashRing.of(RingConfig.defaults(), 0, members);
        HashRing table = ring.withConfig(maglev(65537));
        HashRing other = table.withConfig(maglev(65521));
        for (HashRing[] pair : new HashRing[][] {{ring, table}, {table, ring}, {table, other}, {other, table}}) {
            RingDiff cheaper = RingDiff.betweenTables(pair[0], pair[1], TableDiff.Method.CHEAPER);
            for (TableDiff.Method m : new TableDiff.Method[] {TableDiff.Method.BY_ROW, TableDiff.Method.BY_ENDPOINTS}) {
                assertThat(RingDiff.betweenTables(pair[0], pair[1], m).flows()).as(pair[0] + " -> " + pair[1] + " " + m)
                        .containsExactlyElementsOf(cheaper.flows());
            }
            assertThat(PlacementOracles.sum(PlacementOracles.flowsOf(cheaper))).isEqualTo(cheaper.movedCount());
        }
    }

    // ------------------------------------------------------------ shared

    static void checkDiff(RingDiff diff, Map<String, Long> want, String at) {
        assertThat(PlacementOracles.flowsOf(diff)).as(at + ": flows").isEqualTo(want);
        assertThat(diff.movedCount()).as(at + ": moved = sum of the flows").isEqualTo(PlacementOracles.sum(want));
        assertThat(diff.movedShare()).as(at).isEqualTo(diff.movedCount() / 4294967296.0);
        for (int i = 1; i < diff.flows().size(); i++) {
            RingDiff.Flow p = diff.flows().get(i - 1);
            RingDiff.Flow f = diff.flows().get(i);
            assertThat(p.count()).as(at + ": flows by count descending").isGreaterThanOrEqualTo(f.count());
        }
        assertThat(diff.flows()).as(at).allSatisfy(f -> assertThat(f.from()).isNotEqualTo(f.to()));
        assertThat(diff.rangesListed()).as(at + ": no ranges for a table").isFalse();
        assertThat(diff.rangeCount()).as(at).isZero();
        assertThat(diff.ranges()).as(at).isEmpty();
    }

    /** Every owner's count as a flow from (to) null. */
    static Map<String, Long> wholeSpace(HashRing ring, boolean fromRing) {
        Map<String, Long> out = new TreeMap<>();
        for (Ownership.Share s : ring.ownership().shares()) {
            if (s.count() > 0) {
                out.put(fromRing ? s.node().id() + "->null" : "null->" + s.node().id(), s.count());
            }
        }
        return out;
    }

    private static List<Change> randomChanges(Random rnd, HashRing ring) {
        List<Change> out = new ArrayList<>();
        for (Node n : ring.nodes()) {
            int what = rnd.nextInt(4);
            if (what == 0) {
                out.add(Change.remove(n.id()));
            } else if (what == 1) {
                out.add(Change.put(new Node(n.id(), RingTesting.randomWeight(rnd), n.zone())));
            }
        }
        if (rnd.nextBoolean()) {
            String id;
            do {
                id = RingTesting.randomId(rnd);
            } while (ring.contains(id));
            out.add(Change.put(RingTesting.randomNode(rnd, id)));
        }
        return out;
    }
}
