package io.ringd.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * Every number of docs/ring.md sections 14 (ketama), 15 (Maglev) and 16
 * (rendezvous, jump). The expected values were computed apart from ringd:
 * with Python (hashlib, numpy's float32) from docs/ring.md, and for libketama's
 * and jump's arithmetic with their C expressions compiled by gcc.
 */
class PlacementDocExamplesTest {

    // ------------------------------------------------------------ 14. ketama

    @Test
    void ketama_keyHashOfTest() {
        assertThat(KeyHashes.ketama().hashUnsigned("test")).isEqualTo(0xcd6b8f09L).isEqualTo(3446378249L);
    }

    @Test
    void ketama_digestCountTable() {
        assertThat((double) ((float) 600 / (float) 1000)).isEqualTo(0.6000000238418579);
        assertThat((double) ((float) 600 / (float) 1000) * 40.0 * 2).isEqualTo(48.00000190734863);
        assertThat((double) ((float) 400 / (float) 1000)).isEqualTo(0.4000000059604645);
        assertThat((double) ((float) 1 / (float) 61)).isEqualTo(0.016393441706895828);
        assertThat((double) ((float) 1 / (float) 61) * 40.0 * 61).isEqualTo(39.99999776482582);
        assertThat((double) (float) 39.99999776482582).isEqualTo(39.999996185302734);
        assertThat((double) ((float) 1 / (float) 60) * 40.0 * 60).isEqualTo(40.00000208616257);
        assertThat(Ketama.digests(600, 1000, 2)).isEqualTo(48);
        assertThat(Ketama.digests(400, 1000, 2)).isEqualTo(32);
        assertThat(Ketama.digests(1, 60, 60)).isEqualTo(40);
        assertThat(Ketama.digests(1, 61, 61)).isEqualTo(39);
        int[] below1000 = {61, 122, 237, 244, 474, 488, 933, 948, 951, 953, 976};
        int found = 0;
        int total = 0;
        for (int n = 1; n <= 10_000; n++) {
            if (Ketama.digests(1, n, n) == 39) {
                total++;
                if (n <= 1000) {
                    assertThat(n).isEqualTo(below1000[found++]);
                }
            }
        }
        assertThat(found).isEqualTo(below1000.length);
        assertThat(total).as("11 and 109 more").isEqualTo(120);
        double[] servers = {600, 300, 200, 350, 1000, 800, 950, 100};
        int[] digests = {44, 22, 14, 26, 74, 59, 70, 7};
        for (int i = 0; i < servers.length; i++) {
            assertThat(Ketama.digests(servers[i], 4300, 8)).isEqualTo(digests[i]);
        }
    }

    @Test
    void ketama_pointsOfADigest() {
        assertThat(java.util.HexFormat.of().formatHex(PlacementOracles.md5("127.0.0.1:11211-0")))
                .isEqualTo("e2fa569a4ecf5e58ab09bf98d948c859");
        int[] points = Ketama.points("127.0.0.1:11211", 0, 4);
        assertThat(points).containsExactly(0x9a56fae2, 0x585ecf4e, 0x98bf09ab, 0x59c848d9);
        assertThat(Integer.toUnsignedLong(points[0])).isEqualTo(2589391586L);
        assertThat(Integer.toUnsignedLong(points[2])).isEqualTo(2562656683L);
    }

    @Test
    void ketama_workedExample() {
        HashRing ring = HashRing.of(RingConfig.ketama(), 0,
                List.of(Node.of("127.0.0.1:11211", 600), Node.of("127.0.0.1:11212", 400)));
        assertThat(ring.pointCount()).isEqualTo(320);
        assertThat(ring.pointAt(258)).isEqualTo(3454255383L);
        assertThat(ring.pointAt(257)).isEqualTo(3435288752L);
        assertThat(ring.ownerAt(258)).isEqualTo("127.0.0.1:11211");
        assertThat(ring.route("test")).isEqualTo("127.0.0.1:11211");
        assertThat(RingPropertiesTest.countsOf(ring))
                .isEqualTo(Map.of("127.0.0.1:11211", 2659784450L, "127.0.0.1:11212", 1635182846L));
        assertThat(ring.fingerprint()).isEqualTo("b951dcbd4818e443fbd6087b1335ab83add747b783485c9bab8fb8ea5e3504c7");
    }

    // ------------------------------------------------------------ 15. Maglev

    private static HashRing abc() {
        return HashRing.of(RingConfig.maglev(KeyHashes.md5(), 13), 0,
                List.of(Node.of("a", 1), Node.of("b", 1), Node.of("c", 2)));
    }

    @Test
    void maglev_permutations() {
        assertThat(new int[] {Maglev.offset("a", 13), Maglev.skip("a", 13)}).containsExactly(10, 2);
        assertThat(new int[] {Maglev.offset("b", 13), Maglev.skip("b", 13)}).containsExactly(6, 8);
        assertThat(new int[] {Maglev.offset("c", 13), Maglev.skip("c", 13)}).containsExactly(8, 1);
    }

    @Test
    void maglev_workedExample_tableCountsFingerprintAndLookups() {
        HashRing t = abc();
        assertThat(String.join(" ", PlacementOracles.tableOf(t))).isEqualTo("c b c a b a b b c c a c a");
        assertThat(330382099L * 13 + 9).isEqualTo(1L << 32);
        assertThat(RingPropertiesTest.countsOf(t))
                .isEqualTo(Map.of("a", 1321528398L, "b", 1321528400L, "c", 1651910498L));
        assertThat(t.ownership().shares()).extracting(Ownership.Share::points).containsExactly(4, 4, 5);
        assertThat(t.fingerprint()).isEqualTo("9aa8a90acd334d307e8405c86efa64b42fe6ca5c0e2c29d5ef135b831110215a");
        assertThat(t.hash("user:42")).isEqualTo(1457184536L);
        assertThat(1457184536L % 13).isEqualTo(2);
        assertThat(t.route("user:42")).isEqualTo("c");
        assertThat(t.preference("user:42", 3)).containsExactly("c", "a", "b");
    }

    @Test
    void maglev_workedExample_diffs() {
        HashRing t = abc();
        HashRing withoutB = t.remove("b");
        assertThat(String.join(" ", PlacementOracles.tableOf(withoutB))).isEqualTo("c a c a c c c a c c a c a");
        RingDiff remove = HashRing.diff(t, withoutB);
        assertThat(remove.flows()).extracting(f -> f.from() + "->" + f.to() + " " + f.count())
                .containsExactly("b->a 660764200", "b->c 660764200", "a->c 330382100");
        assertThat(remove.movedCount()).isEqualTo(1651910500L);
        HashRing withD = t.put(Node.of("d", 1));
        assertThat(String.join(" ", PlacementOracles.tableOf(withD))).isEqualTo("c b d a b d b d c c a c a");
        RingDiff add = HashRing.diff(t, withD);
        assertThat(add.flows()).extracting(f -> f.from() + "->" + f.to() + " " + f.count())
                .containsExactly("a->d 330382100", "b->d 330382100", "c->d 330382100");
        assertThat(add.movedCount()).isEqualTo(991146300L);

        HashRing section5 = HashRing.of(new RingConfig(KeyHashes.md5(), 1), 0,
                List.of(new Node("a", 1, "z1"), new Node("b", 1, "z1"), new Node("c", 1, "z2"), Node.of("d", 1)));
        RingDiff switched = HashRing.diff(section5, section5.withConfig(RingConfig.maglev(KeyHashes.md5(), 13)));
        assertThat(switched.movedCount()).isEqualTo(3063931543L);
        assertThat(switched.flows()).hasSize(12);
        assertThat(switched.flows().get(0)).isEqualTo(new RingDiff.Flow("a", "c", 719668373L));
    }

    @Test
    void maglev_weights11123_entriesAt65537() {
        assertThat(65535L * 65537 + 1).isEqualTo(1L << 32);
        HashRing t = HashRing.of(RingConfig.maglev(KeyHashes.md5(), 65537), 0, List.of(Node.of("a", 1),
                Node.of("b", 1), Node.of("c", 1), Node.of("d", 2), Node.of("e", 3)));
        assertThat(t.ownership().shares()).extracting(Ownership.Share::points)
                .containsExactly(8193, 8193, 8192, 16384, 24575);
        for (Ownership.Share s : t.ownership().shares()) {
            assertThat(Math.abs(s.share() / (s.node().weight() / 8) - 1)).isLessThan(0.0002);
        }
    }

    // ------------------------------------------------------------ 16. rendezvous and jump

    @Test
    void rendezvous_workedExample() {
        long h = KeyHashes.md5().hashUnsigned("user:42");
        assertThat(h).isEqualTo(1457184536L);
        java.security.MessageDigest md5 = KeyHashes.newDigest("MD5");
        Object[][] rows = {
            {"a", 1.0, 0x0cc175b9c0f1b6a8L, 0x721d1bfbfd7ebdb4L, 0.44575667, 1.23765},
            {"b", 2.0, 0x92eb5ffee6ae2fecL, 0xa2ff1a7efd9ca86eL, 0.63670507, 4.43018},
            {"c", 1.0, 0x4a8a08f09d37b737L, 0x7d9f0e7c109636d1L, 0.49070826, 1.40468}};
        for (Object[] r : rows) {
            long seed = RendezvousHash.seed(md5, (String) r[0]);
            assertThat(seed).isEqualTo((long) r[2]);
            long x = RendezvousHash.fmix64(seed ^ h);
            assertThat(x).isEqualTo((long) r[3]);
            assertThat(((x >>> 11) + 0.5) * 0x1.0p-53).isCloseTo((double) r[4], within(5e-9));
            assertThat(RendezvousHash.score(seed, (double) r[1], h)).isCloseTo((double) r[5], within(5e-6));
        }
        assertThat(RendezvousHash.of(KeyHashes.md5(), List.of(Node.of("a", 1), Node.of("b", 2), Node.of("c", 1)))
                .route("user:42")).isEqualTo("b");
    }

    @Test
    void jump_values() {
        assertThat(JumpHash.jump(1, 100)).isEqualTo(55);
        assertThat(JumpHash.jump(2, 100)).isEqualTo(62);
        assertThat(JumpHash.jump(2201, 100001)).isEqualTo(22152);
        assertThat(JumpHash.jump(1457184536L, 10)).isEqualTo(6);
        List<String> ten = List.of("n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9");
        assertThat(JumpHash.of(KeyHashes.md5(), ten).route("user:42")).isEqualTo("n6");
    }
}
