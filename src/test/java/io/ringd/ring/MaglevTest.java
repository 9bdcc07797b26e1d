package io.ringd.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

/**
 * {@code algorithm=maglev} (docs/ring.md section 15):
 * tables against {@link PlacementOracles#maglevTable}, which fills round by
 * round visiting every member as Envoy does, and against fingerprints
 * computed by a Python implementation written from docs/ring.md section 15; ownership,
 * lookups, preference lists and the fingerprint format.
 */
class MaglevTest {

    private static final int[] SMALL_PRIMES = {2, 3, 13, 101, 1009};

    private static RingConfig maglev(int m) {
        return RingConfig.of("md5", 128, "maglev", m);
    }

    private static List<Node> weights11123() {
        return List.of(Node.of("a", 1), Node.of("b", 1), Node.of("c", 1), Node.of("d", 2), Node.of("e", 3));
    }

    // ------------------------------------------------------------ the table

    @Test
    void permutations_offsetAndSkipAreMd5OfIdWithSuffix() {
        // md5 of the contract: the first four digest bytes big-endian, here from the JDK
        for (String id : List.of("a", "cache-1:11211", "node-0042")) {
            for (int m : new int[] {13, 65537, 5_000_011}) {
                assertThat(Maglev.offset(id, m)).isEqualTo(RingTesting.digest32("MD5", id + "#offset") % m);
                assertThat(Maglev.skip(id, m)).isEqualTo(RingTesting.digest32("MD5", id + "#skip") % (m - 1) + 1);
            }
        }
    }

    @Test
    void table_matchesTheRoundByRoundFill_overRandomMembershipsAndSizes() {
        long seed = RingTesting.seed("maglev table_matchesTheRoundByRoundFill");
        Random rnd = new Random(seed);
        for (int round = 0; round < 300; round++) {
            int m = SMALL_PRIMES[rnd.nextInt(SMALL_PRIMES.length)];
            List<Node> members = RingTesting.randomMembers(rnd, 1 + rnd.nextInt(round % 10 == 0 ? 40 : 9));
            String at = "seed " + seed + " round " + round + " M " + m + " " + members;
            HashRing ring = HashRing.of(maglev(m), 0, members);
            String[] want = PlacementOracles.maglevTable(members, m);
            assertThat(PlacementOracles.tableOf(ring)).as(at).containsExactly(want);
            assertThat(ring.fingerprint()).as(at).isEqualTo(PlacementOracles.tableFingerprint(want));
            assertThat(RingPropertiesTest.countsOf(ring)).as(at).isEqualTo(PlacementOracles.tableCounts(members, want));
            checkLookups(ring, want, members, rnd, at);
        }
    }

    @Test
    void bothFills_theHeapAndTheRoundByRoundLoop_giveTheOraclesTable() {
        long seed = RingTesting.seed("maglev bothFills");
        Random rnd = new Random(seed);
        for (int round = 0; round < 200; round++) {
            int m = SMALL_PRIMES[1 + rnd.nextInt(SMALL_PRIMES.length - 1)];
            List<Node> members = new ArrayList<>(RingTesting.randomMembers(rnd, 1 + rnd.nextInt(30)));
            if (rnd.nextBoolean()) { // one heavy node among light ones: the heap's case
                Node heavy = members.get(0);
                members.set(0, new Node(heavy.id(), rnd.nextBoolean() ? 10_000 : 50 + rnd.nextInt(100), null));
            }
            members.sort(java.util.Comparator.comparing(Node::id));
            Node[] array = members.toArray(new Node[0]);
            int[] perm = Maglev.permutations(array, m, null);
            String[] want = PlacementOracles.maglevTable(members, m);
            String at = "seed " + seed + " round " + round + " M " + m + " " + members;
            assertThat(ids(array, Maglev.fillByHeap(array, perm, m))).as(at + " heap").containsExactly(want);
            assertThat(ids(array, Maglev.fillByRounds(array, perm, m))).as(at + " rounds").containsExactly(want);
        }
    }

    private static String[] ids(Node[] members, int[] table) {
        String[] out = new String[table.length];
        for (int e = 0; e < table.length; e++) {
            out[e] = members[table[e]].id();
        }
        return out;
    }

    @Test
    void weightsThatAreNotWhole_runningTargetsAsDoubles() {
        // 0.1 and 0.3: r * 0.1 against a running sum of 0.3s, where rounding decides some rounds
        List<Node> nodes = List.of(Node.of("x", 0.1), Node.of("y", 0.3), Node.of("z", 0.7), Node.of("w", 1e-9));
        for (int m : new int[] {101, 1009, 65537}) {
            HashRing ring = HashRing.of(maglev(m), 0, nodes);
            assertThat(PlacementOracles.tableOf(ring)).as("M %d", m)
                    .containsExactly(PlacementOracles.maglevTable(nodes, m));
        }
    }

    @Test
    void moreNodesThanEntries_theFirstOnesInIdOrderTakeThemInRoundOne() {
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            nodes.add(Node.of(String.format("n%02d", i), 1 + i % 3));
        }
        HashRing ring = HashRing.of(maglev(13), 0, nodes);
        assertThat(PlacementOracles.tableOf(ring)).containsExactly(PlacementOracles.maglevTable(nodes, 13));
        assertThat(ring.ownership().shares()).filteredOn(s -> s.count() > 0).extracting(s -> s.node().id())
                .containsExactly("n00", "n01", "n02", "n03", "n04", "n05", "n06", "n07", "n08", "n09", "n10",
                        "n11", "n12");
        assertThat(ring.preference("k", 50)).hasSize(13);
    }

    @Test
    void independentImplementation_sameTablesByFingerprint() {
        // fingerprints computed by a Python implementation written from docs/ring.md section 15 (not from this code)
        assertThat(HashRing.of(maglev(65537), 0, weights11123()).fingerprint())
                .isEqualTo("cee7bbafcc926988adc94dac258f68fc44c604db4f346c26fa0702f7c03ae1fc");
        assertThat(HashRing.of(maglev(13), 0, List.of(Node.of("a", 1), Node.of("b", 1), Node.of("c", 2)))
                .fingerprint()).isEqualTo("9aa8a90acd334d307e8405c86efa64b42fe6ca5c0e2c29d5ef135b831110215a");
    }

    // ------------------------------------------------------------ ownership

    @Test
    void ownership_countsSumTo2e32_andSharesFollowWeightsWithin2Percent() {
        HashRing ring = HashRing.of(maglev(65537), 0, weights11123());
        Ownership own = ring.ownership();
        assertThat(own.total()).isEqualTo(1L << 32);
        long q = (1L << 32) / 65537; // 65535, and 2^32 = 65535 * 65537 + 1
        assertThat(q * 65537 + 1).isEqualTo(1L << 32);
        for (Ownership.Share s : own.shares()) {
            double expected = s.node().weight() / 8;
            assertThat(s.share() / expected - 1).as(s.toString()).isBetween(-0.02, 0.02);
            // entry 0 holds one value more than the others
            boolean ownsEntry0 = ring.ownerAt(0).equals(s.node().id());
            assertThat(s.count()).as(s.toString()).isEqualTo(q * s.points() + (ownsEntry0 ? 1 : 0));
        }
        assertThat(own.shares()).extracting(Ownership.Share::points).containsExactly(8193, 8193, 8192, 16384, 24575);
    }

    // ------------------------------------------------------------ lookups and accessors

    @Test
    void pointMethods_sayWhatTheyDoForATable() {
        HashRing ring = HashRing.of(maglev(1009), 3, weights11123());
        assertThat(ring.isTable()).isTrue();
        assertThat(ring.pointCount()).isEqualTo(1009);
        assertThat(ring.vnodeCount()).isEqualTo(1009);
        assertThat(ring.ownerAt(1008)).isNotNull();
        assertThatThrownBy(() -> ring.pointAt(0)).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("ownerAt");
        assertThat(ring.toString()).isEqualTo("HashRing[5 nodes, maglev table of 1009 entries, v3]");
        assertThat(ring.routeHash(1009L * 7 + 5)).isEqualTo(ring.ownerAt(5));
        assertThat(ring.routeHash(4294967295L)).isEqualTo(ring.ownerAt((int) (4294967295L % 1009)));
        assertThatThrownBy(() -> ring.routeHash(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(HashRing.of(RingConfig.defaults(), 0, weights11123()).isTable()).isFalse();
    }

    @Test
    void emptyTable_behavesAsAnEmptyRing() {
        HashRing empty = HashRing.empty(maglev(65537));
        assertThat(empty.isEmpty()).isTrue();
        assertThat(empty.isTable()).isFalse();
        assertThat(empty.pointCount()).isZero();
        assertThat(empty.ownership().shares()).isEmpty();
        assertThat(empty.fingerprint()).isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assertThatThrownBy(() -> empty.route("k")).isInstanceOf(RingException.NoNodes.class);
        assertThatThrownBy(() -> empty.preference("k", 2, true)).isInstanceOf(RingException.NoNodes.class);
        HashRing one = empty.put(Node.of("solo", 1));
        assertThat(one.isTable()).isTrue();
        assertThat(one.ownership().shares().get(0).count()).isEqualTo(1L << 32);
        assertThat(one.remove("solo").isEmpty()).isTrue();
    }

    @Test
    void keyHash_isTheRingsHash_ketamaIncluded() {
        HashRing md5 = HashRing.of(RingConfig.of("md5", 128, "maglev", 1009), 0, weights11123());
        HashRing murmur = HashRing.of(RingConfig.of("murmur3", 128, "maglev", 1009), 0, weights11123());
        HashRing ketama = HashRing.of(RingConfig.of("ketama", 128, "maglev", 1009), 0, weights11123());
        assertThat(murmur.fingerprint()).as("the table does not depend on the key hash").isEqualTo(md5.fingerprint())
                .isEqualTo(ketama.fingerprint());
        assertThat(md5.hash("hello")).isEqualTo(0x5d41402aL);
        assertThat(murmur.hash("hello")).isEqualTo(0x248bfa47L);
        assertThat(ketama.hash("test")).isEqualTo(3446378249L);
        assertThat(ketama.route("test")).isEqualTo(ketama.ownerAt((int) (3446378249L % 1009)));
        assertThat(ketama.config().hashName()).isEqualTo("ketama");
        assertThat(ketama.config().algorithmName()).isEqualTo("maglev");
    }

    // ------------------------------------------------------------ changes

    @Test
    void changes_incrementalEqualsFromScratch_inAnyOrder() {
        long seed = RingTesting.seed("maglev changes_incrementalEqualsFromScratch");
        Random rnd = new Random(seed);
        for (int round = 0; round < 100; round++) {
            int m = SMALL_PRIMES[2 + rnd.nextInt(SMALL_PRIMES.length - 2)];
            RingConfig config = maglev(m);
            List<Node> members = RingTesting.randomMembers(rnd, 1 + rnd.nextInt(8));
            HashRing ring = HashRing.empty(config);
            for (Node n : members) {
                ring = ring.put(n);
            }
            String at = "seed " + seed + " round " + round + " M " + m + " " + members;
            assertThat(ring.version()).as(at).isEqualTo(members.size());
            assertThat(ring.fingerprint()).as(at).isEqualTo(HashRing.of(config, 0, members).fingerprint());
            Map<String, Node> next = new TreeMap<>();
            members.forEach(n -> next.put(n.id(), n));
            List<Change> batch = new ArrayList<>();
            for (Node n : members) {
                int what = rnd.nextInt(3);
                if (what == 0) {
                    batch.add(Change.remove(n.id()));
                    next.remove(n.id());
                } else if (what == 1) {
                    Node r = new Node(n.id(), RingTesting.randomWeight(rnd), n.zone());
                    batch.add(Change.put(r));
                    next.put(n.id(), r);
                }
            }
            HashRing after = ring.apply(batch);
            String[] want = PlacementOracles.maglevTable(next.values(), m);
            assertThat(PlacementOracles.tableOf(after)).as(at + " then " + batch).containsExactly(want);
            assertThat(after.fingerprint()).as(at).isEqualTo(PlacementOracles.tableFingerprint(want));
        }
    }

    @Test
    void settingsSwitch_fromRingToMaglevAndBack_isOneVersionEach() {
        HashRing ring = HashRing.of(RingConfig.defaults(), 4, weights11123());
        HashRing table = ring.withConfig(RingConfig.of("md5", 128, "maglev", 65537));
        assertThat(table.version()).isEqualTo(5);
        assertThat(table.isTable()).isTrue();
        HashRing bigger = table.withConfig(RingConfig.of("md5", 128, "maglev", 65521));
        assertThat(bigger.version()).isEqualTo(6);
        assertThat(bigger.pointCount()).isEqualTo(65521);
        HashRing back = bigger.withConfig(RingConfig.defaults());
        assertThat(back.version()).isEqualTo(7);
        assertThat(back.fingerprint()).isEqualTo(ring.fingerprint());
        assertThat(table.withConfig(RingConfig.of("md5", 128, "maglev", 65537))).isSameAs(table);
    }

    // ------------------------------------------------------------ shared

    private static void checkLookups(HashRing ring, String[] table, List<Node> members, Random rnd, String at) {
        Map<String, String> zones = new HashMap<>();
        members.forEach(n -> zones.put(n.id(), n.zone()));
        long owning = java.util.Arrays.stream(table).distinct().count();
        for (int i = 0; i < 20; i++) {
            long h = i < 3 ? new long[] {0, 4294967295L, table.length - 1}[i] : rnd.nextLong() & 0xFFFF_FFFFL;
            int e = (int) (h % table.length);
            String what = at + ": hash " + h;
            assertThat(ring.routeHash(h)).as(what).isEqualTo(table[e]);
            int n = 1 + rnd.nextInt((int) owning + 2);
            List<String> plain = PlacementOracles.tablePreference(table, e, n);
            List<String> p = ring.preferenceHash(h, n, false);
            List<String> z = ring.preferenceHash(h, n, true);
            assertThat(p).as(what + " preference " + n).containsExactlyElementsOf(plain);
            assertThat(z).as(what + " zone-aware " + n).containsExactlyElementsOf(PlacementOracles.zoned(
                    PlacementOracles.tablePreference(table, e, Integer.MAX_VALUE), zones, n));
            for (List<String> list : List.of(p, z)) {
                assertThat(list).as(what).doesNotHaveDuplicates().hasSize((int) Math.min(n, owning));
                assertThat(list.get(0)).as(what).isEqualTo(table[e]);
            }
        }
        String key = RingTesting.randomKey(rnd);
        assertThat(ring.route(key)).as(at).isEqualTo(table[(int) (RingTesting.digest32("MD5", key) % table.length)]);
    }
}
