package io.ringd.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class RingDiffKeepRangesTest {

    static HashRing ring(int nodes, int vnodes) {
        List<Node> members = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            members.add(Node.of("n" + i, 1 + i % 3));
        }
        return HashRing.of(RingConfig.of("md5", vnodes), 0, members);
    }

    @Test
    void keepingFewRanges_keepsTheFirstOnes_andCountsFlowsExactly() {
        HashRing a = ring(20, 64);
        HashRing b = a.apply(List.of(Change.put(Node.of("new", 2)), Change.remove("n3"), Change.put(Node.of("n5", 7))));
        RingDiff all = HashRing.diff(a, b);
        assertThat(all.rangeCount()).isGreaterThan(50).isEqualTo(all.keptRangeCount());
        for (int keep : new int[] {0, 1, 7, all.rangeCount() - 1, all.rangeCount(), all.rangeCount() + 5}) {
            RingDiff some = HashRing.diff(a, b, keep);
            assertThat(some.rangeCount()).as("keep %d", keep).isEqualTo(all.rangeCount());
            assertThat(some.keptRangeCount()).isEqualTo(Math.min(keep, all.rangeCount()));
            assertThat(some.ranges()).isEqualTo(all.ranges(keep));
            assertThat(some.movedCount()).isEqualTo(all.movedCount());
            assertThat(some.flows()).isEqualTo(all.flows());
        }
    }

    @Test
    void keepingFromAnEmptyRing_countsEveryArc() {
        HashRing b = ring(3, 16);
        RingDiff all = HashRing.diff(HashRing.empty(), b);
        RingDiff none = HashRing.diff(HashRing.empty(), b, 0);
        assertThat(none.rangeCount()).isEqualTo(all.rangeCount()).isPositive();
        assertThat(none.ranges()).isEmpty();
        assertThat(none.movedCount()).isEqualTo(HashRing.HASH_SPACE);
    }

    @Test
    void negativeKeep_isRefused() {
        assertThatThrownBy(() -> HashRing.diff(HashRing.empty(), HashRing.empty(), -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
    }
}
