package io.ringd.lookup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ringd.ring.HashRing;
import io.ringd.ring.KeyHash;
import io.ringd.ring.KeyHashes;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;
import io.ringd.ring.VnodeLabels;

/** The explain answer from the library, with vnodes that collide and the wrap arc, on a hash chosen per label. */
class ExplainTest {

    /** md5, except for the labels listed. */
    private static KeyHash fixed(Map<String, Long> values) {
        return key -> values.containsKey(key) ? (int) (long) values.get(key) : KeyHashes.md5().hash(key);
    }

    @Test
    void collisions_leaveThePointAndItsLabelToTheSmallestIdAndTheNodesOwnSmallestIndex() {
        Map<String, Long> at = Map.of("A#0", 1000L, "A#1", 2000L, "B#0", 2000L, "B#1", 3000L, "B#2", 3000L,
                "k-wrap", 3500L, "k-first", 999L, "k-a1", 2000L, "k-b", 2500L);
        HashRing ring = HashRing.of(new RingConfig(fixed(at), 3), 0, List.of(Node.of("A", 2.0 / 3), Node.of("B", 1)));
        assertThat(Explain.of(ring, ring.hash("k-a1"), VnodeLabels::label)).isEqualTo(new Explain(
                "ring", "A", 1, 2000L, "A#1", 1001L, 2000L, false, null, null, null, null, 1000));
        assertThat(Explain.of(ring, ring.hash("k-b"), VnodeLabels::label)).isEqualTo(new Explain(
                "ring", "B", 2, 3000L, "B#1", 2001L, 3000L, false, null, null, null, null, 1000));
        Explain wrap = new Explain("ring", "A", 0, 1000L, "A#0", 3001L, 1000L, true,
                null, null, null, null, (1L << 32) - 3000 + 1000);
        assertThat(Explain.of(ring, ring.hash("k-wrap"), VnodeLabels::label)).isEqualTo(wrap);
        assertThat(Explain.of(ring, ring.hash("k-first"), VnodeLabels::label)).isEqualTo(wrap);
    }
}
