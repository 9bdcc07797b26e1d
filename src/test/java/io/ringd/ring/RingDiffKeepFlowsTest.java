package io.ringd.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * A diff that keeps only the first flows, or only a node's flows and
 * ranges, is the whole diff cut down: the first {@code keepFlows} of the
 * flow order, exact counts, and with a node exactly the flows and ranges
 * from or to it. Checked against the whole diff over random memberships of
 * rings and Maglev tables (seeded, {@code -Dringd.seed=N}).
 */
class RingDiffKeepFlowsTest {

    private static final RingConfig MAGLEV = RingConfig.of("md5", 128, "maglev", 1009);

    @Test
    void keepingFewFlows_keepsTheFirstOfTheFlowOrder_andCountsThemAll() {
        long seed = RingTesting.seed("keepingFewFlows_keepsTheFirstOfTheFlowOrder");
        Random rnd = new Random(seed);
        for (int round = 0; round < 60; round++) {
            HashRing a = randomPlacement(rnd, 0);
            HashRing b = rnd.nextBoolean() ? a.apply(randomChanges(rnd, a)) : randomPlacement(rnd, 1);
            String at = "seed " + seed + " round " + round + " " + a + " -> " + b;
            RingDiff all = HashRing.diff(a, b);
            assertThat(all.flowCount()).as(at).isEqualTo(all.flows().size());
            checkFlowOrder(all.flows(), at);
            for (int keep : new int[] {0, 1, 2, 5, all.flowCount() - 1, all.flowCount(), all.flowCount() + 3}) {
                if (keep < 0) {
                    continue;
                }
                RingDiff some = HashRing.diff(a, b, 7, keep, null);
                assertThat(some.flowCount()).as(at + " keep " + keep).isEqualTo(all.flowCount());
                assertThat(some.flows()).as(at + " keep " + keep)
                        .isEqualTo(all.flows().subList(0, Math.min(keep, all.flowCount())));
                assertThat(some.movedCount()).as(at).isEqualTo(all.movedCount());
                assertThat(some.rangeCount()).as(at).isEqualTo(all.rangeCount());
                assertThat(some.ranges()).as(at).isEqualTo(all.ranges(7));
            }
        }
    }

    @Test
    void aNode_keepsExactlyTheFlowsAndRangesFromOrToIt() {
        long seed = RingTesting.seed("aNode_keepsExactlyTheFlowsAndRangesFromOrToIt");
        Random rnd = new Random(seed);
        for (int round = 0; round < 60; round++) {
            HashRing a = randomPlacement(rnd, 0);
            HashRing b = rnd.nextBoolean() ? a.apply(randomChanges(rnd, a)) : randomPlacement(rnd, 1);
            RingDiff all = HashRing.diff(a, b);
            List<String> ids = new ArrayList<>();
            a.nodes().forEach(n -> ids.add(n.id()));
            b.nodes().forEach(n -> ids.add(n.id()));
            ids.add("not-a-member");
            for (String node : ids) {
                String at = "seed " + seed + " round " + round + " node " + node + " " + a + " -> " + b;
                RingDiff only = HashRing.diff(a, b, Integer.MAX_VALUE, Integer.MAX_VALUE, node);
                List<RingDiff.Flow> flows = all.flows().stream()
                        .filter(f -> node.equals(f.from()) || node.equals(f.to())).toList();
                List<RingDiff.Range> ranges = all.ranges().stream()
                        .filter(r -> node.equals(r.from()) || node.equals(r.to())).toList();
                assertThat(only.node()).isEqualTo(node);
                assertThat(only.flows()).as(at).isEqualTo(flows);
                assertThat(only.flowCount()).as(at).isEqualTo(flows.size());
                assertThat(only.ranges()).as(at).isEqualTo(ranges);
                assertThat(only.rangeCount()).as(at).isEqualTo(ranges.size());
                assertThat(only.movedCount()).as(at)
                        .isEqualTo(flows.stream().mapToLong(RingDiff.Flow::count).sum());
                RingDiff head = HashRing.diff(a, b, 1, 1, node);
                assertThat(head.flows()).as(at).isEqualTo(flows.subList(0, Math.min(1, flows.size())));
                assertThat(head.flowCount()).as(at).isEqualTo(flows.size());
                assertThat(head.ranges()).as(at).isEqualTo(ranges.subList(0, Math.min(1, ranges.size())));
            }
        }
    }

    @Test
    void manyFlows_areCountedWhileFewAreKept() {
        // a hash change moves values between nearly every pair of 150 nodes of 64 points
        List<Node> members = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            members.add(Node.of("n" + i, 1));
        }
        HashRing a = HashRing.of(RingConfig.of("md5", 64), 0, members);
        HashRing b = a.withConfig(RingConfig.of("murmur3", 64));
        RingDiff all = HashRing.diff(a, b);
        RingDiff few = HashRing.diff(a, b, 10, 10, null);
        assertThat(all.flowCount()).isGreaterThan(5_000);
        assertThat(few.flowCount()).isEqualTo(all.flowCount());
        assertThat(few.flows()).hasSize(10).isEqualTo(all.flows().subList(0, 10));
        assertThat(few.movedCount()).isEqualTo(all.movedCount())
                .isEqualTo(all.flows().stream().mapToLong(RingDiff.Flow::count).sum());
    }

    @Test
    void badLimitsAndIds_areRefusedNamingThem() {
        HashRing e = HashRing.empty();
        assertThatThrownBy(() -> HashRing.diff(e, e, 0, -1, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keepFlows").hasMessageContaining("-1");
        assertThatThrownBy(() -> HashRing.diff(e, e, 0, 0, "a b"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a b");
    }

    private static void checkFlowOrder(List<RingDiff.Flow> flows, String at) {
        for (int i = 1; i < flows.size(); i++) {
            RingDiff.Flow p = flows.get(i - 1);
            RingDiff.Flow f = flows.get(i);
            int byCount = Long.compare(f.count(), p.count());
            int byFrom = compare(p.from(), f.from());
            int byTo = compare(p.to(), f.to());
            assertThat(byCount < 0 || byCount == 0 && (byFrom < 0 || byFrom == 0 && byTo < 0))
                    .as(at + ": " + p + " before " + f).isTrue();
        }
    }

    private static int compare(String x, String y) {
        if (Objects.equals(x, y)) {
            return 0;
        }
        return x == null ? -1 : y == null ? 1 : x.compareTo(y);
    }

    private static HashRing randomPlacement(Random rnd, long version) {
        List<Node> members = rnd.nextInt(8) == 0 ? List.of() : RingTesting.randomMembers(rnd, 1 + rnd.nextInt(8));
        RingConfig config = switch (rnd.nextInt(5)) { // every placement: a node's part is exact for each
            case 0 -> MAGLEV;
            case 1 -> RingConfig.of("murmur3", 1 + rnd.nextInt(16));
            case 2 -> RingConfig.of("sha256", 1 + rnd.nextInt(16));
            case 3 -> RingConfig.ketama(KetamaFlavor.values()[rnd.nextInt(KetamaFlavor.values().length)]);
            default -> RingConfig.of("md5", 1 + rnd.nextInt(16));
        };
        return HashRing.of(config, version, members);
    }

    private static List<Change> randomChanges(Random rnd, HashRing ring) {
        List<Change> changes = new ArrayList<>();
        List<Node> nodes = ring.nodes();
        if (!nodes.isEmpty() && rnd.nextBoolean()) {
            changes.add(Change.remove(nodes.get(rnd.nextInt(nodes.size())).id()));
        }
        changes.add(Change.put(Node.of("added-" + rnd.nextInt(1000), 1 + rnd.nextInt(3))));
        return changes;
    }
}
