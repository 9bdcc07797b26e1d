package io.ringd.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

import org.junit.jupiter.api.Test;

/** An empty ring answers "no nodes", never null, and has the SHA-256 of nothing as its fingerprint. */
class EmptyRingTest {

    private static final String SHA256_OF_NOTHING =
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    @Test
    void newEmptyRing_isVersionZeroWithNoMembers() {
        HashRing empty = HashRing.empty();
        assertThat(empty.version()).isZero();
        assertThat(empty.isEmpty()).isTrue();
        assertThat(empty.nodeCount()).isZero();
        assertThat(empty.pointCount()).isZero();
        assertThat(empty.vnodeCount()).isZero();
        assertThat(empty.nodes()).isEmpty();
        assertThat(empty.config()).isEqualTo(RingConfig.defaults());
        assertThat(empty.toString()).isEqualTo("HashRing[0 nodes, 0 points, v0]");
    }

    @Test
    void lookups_throwNoNodes() {
        for (HashRing empty : List.of(HashRing.empty(), emptied())) {
            assertThatThrownBy(() -> empty.route("k")).isInstanceOf(RingException.NoNodes.class)
                    .hasMessage("the ring has no nodes");
            assertThatThrownBy(() -> empty.routeHash(0)).isInstanceOf(RingException.NoNodes.class);
            assertThatThrownBy(() -> empty.routeHash(RingTesting.MAX_HASH)).isInstanceOf(RingException.NoNodes.class);
            assertThatThrownBy(() -> empty.preference("k", 3)).isInstanceOf(RingException.NoNodes.class);
            assertThatThrownBy(() -> empty.preference("k", 3, true)).isInstanceOf(RingException.NoNodes.class);
            assertThatThrownBy(() -> empty.preferenceHash(7, 1, false)).isInstanceOf(RingException.NoNodes.class);
        }
    }

    @Test
    void ownership_isAnEmptyList() {
        Ownership o = HashRing.empty().ownership();
        assertThat(o.shares()).isEmpty();
        assertThat(o.total()).isZero();
        assertThat(o.version()).isZero();
        assertThat(emptied().ownership().shares()).isEmpty();
    }

    @Test
    void fingerprint_isSha256OfZeroBytes() throws Exception {
        assertThat(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(new byte[0])))
                .isEqualTo(SHA256_OF_NOTHING);
        assertThat(HashRing.empty().fingerprint()).isEqualTo(SHA256_OF_NOTHING);
        assertThat(HashRing.empty(RingConfig.of("murmur3", 7)).fingerprint()).isEqualTo(SHA256_OF_NOTHING);
        assertThat(emptied().fingerprint()).isEqualTo(SHA256_OF_NOTHING);
    }

    @Test
    void assignments_areNullForEveryKey() {
        KeyAssignment a = HashRing.empty().assignments(List.of("a", "b"));
        assertThat(a.nodes()).containsExactly(null, null);
        assertThat(a.version()).isZero();
    }

    @Test
    void emptiedRing_keepsItsVersionAndConfig() {
        HashRing r = emptied();
        assertThat(r.version()).isEqualTo(3);
        assertThat(r.config().vnodesPerWeight()).isEqualTo(5);
        assertThat(r.put(Node.of("a", 1)).version()).isEqualTo(4);
    }

    /** Two nodes added, then removed in one batch: version 3. */
    private static HashRing emptied() {
        return HashRing.empty(RingConfig.of("sha256", 5)).put(Node.of("a", 1)).put(Node.of("b", 2))
                .apply(List.of(Change.remove("a"), Change.remove("b")));
    }
}
