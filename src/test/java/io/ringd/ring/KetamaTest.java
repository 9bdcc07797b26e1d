package io.ringd.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;

/**
 * {@code hash=ketama} (docs/ring.md section 14) against
 * vectors/ketama-libketama-compat.json, against libketama's C arithmetic, and
 * against {@link PlacementOracles#ketamaRing} over random memberships.
 *
 * <p>Values not in the vector file were computed outside ringd: digest
 * counts by libketama's own expression compiled with gcc on x86-64
 * ({@code floorf(pct * 40.0 * (float) n)}); fingerprints and ownership
 * counts by a Python implementation written from docs/ring.md section 14 (hashlib, numpy's
 * float32), which also reproduces all 400 keys and the matched point of the
 * vector.
 */
class KetamaTest {

    private static final RingConfig KETAMA = RingConfig.of("ketama", 128, "ring", 65537);

    // ------------------------------------------------------------ the vectors

    @Test
    void keyHash_isMd5LittleEndian_asTheVectorsHashCasesSay() {
        JsonNode v = Vectors.load("ketama-libketama-compat.json");
        HashRing ring = HashRing.empty(KETAMA);
        assertThat(v.get("hashCases").size()).isEqualTo(8);
        for (JsonNode c : v.get("hashCases")) {
            String key = c.get("key").asString();
            assertThat(KeyHashes.ketama().hashUnsigned(key)).as(key).isEqualTo(c.get("hash").asLong());
            assertThat(ring.hash(key)).as(key).isEqualTo(c.get("hash").asLong());
        }
        assertThat(KeyHashes.ketama().name()).isEqualTo("ketama");
    }

    @Test
    void equalWeights_everyKeyOfTheLibketamaExtractRoutesAsLibketamaDoes() {
        JsonNode set = set("spymemcached_testLibKetamaCompatThree");
        List<Node> nodes = new ArrayList<>();
        set.get("servers").forEach(s -> nodes.add(Node.of(s.asString(), 1)));
        HashRing ring = HashRing.of(KETAMA, 0, nodes);
        assertThat(ring.pointCount()).isEqualTo(8 * set.get("points_per_server").asInt()).isEqualTo(1280);
        assertThat(ring.vnodeCount()).isEqualTo(1280);
        int checked = 0;
        for (JsonNode c : set.get("cases")) {
            String key = c.get("key").asString();
            assertThat(ring.route(key)).as("route(%s)", key).isEqualTo(c.get("server").asString());
            assertThat(ring.preference(key, 3).get(0)).as(key).isEqualTo(c.get("server").asString());
            checked++;
        }
        assertThat(checked).isEqualTo(400);
        // computed outside ringd (see the class comment)
        assertThat(ring.fingerprint()).isEqualTo("5be482da5a8e4a6acd3a9440916cab56b2c94ec571df25f1a609717d6a9fd3d2");
        assertThat(RingPropertiesTest.countsOf(ring)).isEqualTo(Map.of(
                "10.0.1.1:11211", 513876141L, "10.0.1.2:11211", 498068092L, "10.0.1.3:11211", 547945537L,
                "10.0.1.4:11211", 489376415L, "10.0.1.5:11211", 502219050L, "10.0.1.6:11211", 518382696L,
                "10.0.1.7:11211", 647929383L, "10.0.1.8:11211", 577169982L));
    }

    @Test
    void weighted600And400_matchesLibketamasPythonTests_andTheIndependentFingerprint() {
        JsonNode set = set("libketama_python_weighted_600_400");
        List<Node> nodes = new ArrayList<>();
        set.get("servers").forEach(s -> nodes.add(Node.of(s.get("server").asString(), s.get("weight").asDouble())));
        HashRing ring = HashRing.of(KETAMA, 0, nodes);
        assertThat(ring.pointCount()).isEqualTo(set.get("continuum_assertions").get("total_points").asInt())
                .isEqualTo(320);
        assertThat(RingPropertiesTest.ownersOf(ring)).filteredOn("127.0.0.1:11211"::equals).hasSize(4 * 48);
        for (JsonNode c : set.get("cases")) {
            String key = c.get("key").asString();
            long h = ring.hash(key);
            assertThat(ring.route(key)).isEqualTo(c.get("server").asString());
            int i = 0;
            while (ring.pointAt(i) < h) {
                i++;
            }
            assertThat(ring.pointAt(i)).as("the continuum point matched").isEqualTo(c.get("point").asLong());
        }
        // not in the vector: computed outside ringd (see the class comment)
        assertThat(ring.fingerprint()).isEqualTo("b951dcbd4818e443fbd6087b1335ab83add747b783485c9bab8fb8ea5e3504c7");
        assertThat(RingPropertiesTest.countsOf(ring))
                .isEqualTo(Map.of("127.0.0.1:11211", 2659784450L, "127.0.0.1:11212", 1635182846L));
        assertThat(ring.ownership().total()).isEqualTo(HashRing.HASH_SPACE);
    }

    @Test
    void libketamasOwnTestServers_make1264Points() {
        double[] weights = {600, 300, 200, 350, 1000, 800, 950, 100};
        int[] digests = {44, 22, 14, 26, 74, 59, 70, 7}; // libketama's expression, compiled with gcc
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < weights.length; i++) {
            nodes.add(Node.of("10.0.1." + (i + 1) + ":11211", weights[i]));
            assertThat(Ketama.digests(weights[i], 4300, 8)).as("server %d", i).isEqualTo(digests[i]);
        }
        HashRing ring = HashRing.of(KETAMA, 0, nodes);
        assertThat(ring.vnodeCount()).isEqualTo(1264);
        assertThat(ring.pointCount()).isEqualTo(1264);
    }

    // ------------------------------------------------------------ libketama's float arithmetic

    /** Every n <= 10,000 for which n equal weights give 39 digests, not 40: gcc, libketama's expression. */
    private static final int[] THIRTY_NINE = {61, 122, 237, 244, 474, 488, 933, 948, 951, 953, 976, 1699, 1813,
        1829, 1831, 1837, 1866, 1896, 1902, 1906, 1952, 1987, 2021, 2023, 3398, 3475, 3573, 3587, 3626, 3658, 3662,
        3674, 3732, 3735, 3775, 3792, 3804, 3812, 3843, 3903, 3904, 3907, 3923, 3925, 3971, 3974, 3995, 4007, 4039,
        4042, 4046, 4067, 4071, 6727, 6753, 6796, 6897, 6919, 6950, 7011, 7045, 7115, 7146, 7174, 7252, 7316, 7324,
        7335, 7348, 7387, 7389, 7461, 7464, 7467, 7470, 7550, 7569, 7584, 7608, 7615, 7624, 7686, 7701, 7707, 7741,
        7743, 7763, 7781, 7787, 7789, 7806, 7808, 7809, 7814, 7833, 7846, 7850, 7851, 7859, 7869, 7893, 7897, 7917,
        7942, 7947, 7948, 7990, 7999, 8014, 8045, 8047, 8078, 8079, 8084, 8092, 8134, 8139, 8142, 8163, 8165};

    @Test
    void digestCounts_equalWeights_are40ExceptWhereLibketamasFloatRoundingGives39() {
        java.util.Set<Integer> odd = new java.util.HashSet<>();
        for (int n : THIRTY_NINE) {
            odd.add(n);
        }
        for (int n = 1; n <= 10_000; n++) {
            assertThat(Ketama.digests(1, n, n)).as("n = %d", n).isEqualTo(odd.contains(n) ? 39 : 40);
            assertThat(Ketama.digests(7.5, 7.5 * n, n)).as("weight 7.5, n = %d", n)
                    .isEqualTo(PlacementOracles.ketamaDigests(7.5, 7.5 * n, n));
        }
    }

    @Test
    void digestCounts_fractionalAndTinyWeights_asLibketamasExpressionWithDoubles_atLeastOne() {
        // gcc, libketama's expression with double weights summed in order
        assertDigests(new double[] {0.5, 1.5, 2.25, 0.1}, 18, 55, 82, 3);
        assertDigests(new double[] {1e-6, 3, 7}, 1, 35, 83);       // libketama: 0 for the first
        assertDigests(new double[] {0.3, 0.3, 0.3, 0.1}, 48, 48, 48, 16);
        assertDigests(new double[] {10000, 1, 0.001, 5, 2.5}, 199, 1, 1, 1, 1); // libketama: 199, 0, 0, 0, 0
    }

    private static void assertDigests(double[] weights, int... expected) {
        double sum = 0;
        for (double w : weights) {
            sum += w;
        }
        for (int i = 0; i < weights.length; i++) {
            assertThat(Ketama.digests(weights[i], sum, weights.length)).as("weight %s of %s", weights[i], sum)
                    .isEqualTo(expected[i]);
        }
    }

    @Test
    void sixtyOneEqualNodes_have156PointsEach() {
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < 61; i++) {
            nodes.add(Node.of("cache-" + i, 1));
        }
        HashRing ring = HashRing.of(KETAMA, 0, nodes);
        assertThat(ring.vnodeCount()).isEqualTo(61 * 156);
        assertThat(ring.put(Node.of("cache-61", 1)).vnodeCount()).as("62 nodes: 40 digests again").isEqualTo(62 * 160);
    }

    // ------------------------------------------------------------ against the oracle

    @Test
    void randomMemberships_matchTheOracle_pointsOwnersCountsFingerprintAndLookups() {
        long seed = RingTesting.seed("ketama randomMemberships_matchTheOracle");
        Random rnd = new Random(seed);
        for (int round = 0; round < 150; round++) {
            List<Node> members = RingTesting.randomMembers(rnd, 1 + rnd.nextInt(12));
            String at = "seed " + seed + " round " + round + " " + members;
            HashRing ring = HashRing.of(KETAMA, 0, members);
            checkAgainstOracle(ring, members, rnd, at);
        }
    }

    @Test
    void changes_incrementalEqualsFromScratch_andDiffsAreExact() {
        long seed = RingTesting.seed("ketama changes_incrementalEqualsFromScratch");
        Random rnd = new Random(seed);
        for (int round = 0; round < 60; round++) {
            List<Node> members = RingTesting.randomMembers(rnd, 1 + rnd.nextInt(10));
            HashRing ring = HashRing.of(KETAMA, 0, members);
            for (int step = 0; step < 6; step++) {
                Map<String, Node> next = new TreeMap<>();
                ring.nodes().forEach(n -> next.put(n.id(), n));
                List<Change> changes = new ArrayList<>();
                int kind = rnd.nextInt(3);
                if (kind == 0 || next.size() < 2) {
                    String id;
                    do {
                        id = RingTesting.randomId(rnd);
                    } while (next.containsKey(id));
                    Node n = RingTesting.randomNode(rnd, id);
                    changes.add(Change.put(n));
                    next.put(id, n);
                } else if (kind == 1) {
                    String id = new ArrayList<>(next.keySet()).get(rnd.nextInt(next.size()));
                    changes.add(Change.remove(id));
                    next.remove(id);
                } else {
                    Node old = new ArrayList<>(next.values()).get(rnd.nextInt(next.size()));
                    Node n = new Node(old.id(), RingTesting.randomWeight(rnd), old.zone());
                    changes.add(Change.put(n));
                    next.put(n.id(), n);
                }
                String at = "seed " + seed + " round " + round + " step " + step + " " + ring.nodes() + " then "
                        + changes;
                HashRing after = ring.apply(changes);
                HashRing scratch = HashRing.of(KETAMA, after.version(), next.values());
                if (after == ring) {
                    continue;
                }
                assertThat(RingPropertiesTest.pointsOf(after)).as(at).containsExactly(RingPropertiesTest.pointsOf(scratch));
                assertThat(RingPropertiesTest.ownersOf(after)).as(at).containsExactly(RingPropertiesTest.ownersOf(scratch));
                assertThat(after.vnodeCount()).as(at).isEqualTo(scratch.vnodeCount());
                checkAgainstOracle(after, new ArrayList<>(next.values()), rnd, at);

                RingDiff diff = HashRing.diff(ring, after);
                Map<String, Long> want = PlacementOracles.ringFlows(PlacementOracles.ringOf(ring),
                        PlacementOracles.ringOf(after));
                assertThat(PlacementOracles.flowsOf(diff)).as(at + ": flows").isEqualTo(want);
                assertThat(diff.movedCount()).as(at).isEqualTo(PlacementOracles.sum(want));
                assertThat(diff.rangesListed()).isTrue();
                assertThat(diff.ranges().stream().mapToLong(RingDiff.Range::size).sum()).as(at)
                        .isEqualTo(diff.movedCount());
                ring = after;
            }
        }
    }

    @Test
    void aJoinThatTipsEveryCount_isStillExact() {
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            nodes.add(Node.of("cache-" + i, 1));
        }
        HashRing sixty = HashRing.of(KETAMA, 0, nodes);
        HashRing sixtyOne = sixty.put(Node.of("cache-60", 1)); // every node: 40 -> 39 digests
        HashRing back = sixtyOne.remove("cache-60");           // and back to 40
        nodes.add(Node.of("cache-60", 1));
        assertThat(sixtyOne.fingerprint()).isEqualTo(HashRing.of(KETAMA, 1, nodes).fingerprint());
        assertThat(sixtyOne.vnodeCount()).isEqualTo(61 * 156);
        assertThat(back.fingerprint()).isEqualTo(sixty.fingerprint());
        RingDiff diff = HashRing.diff(sixty, sixtyOne);
        assertThat(PlacementOracles.flowsOf(diff)).isEqualTo(PlacementOracles.ringFlows(
                PlacementOracles.ringOf(sixty), PlacementOracles.ringOf(sixtyOne)));
        assertThat(diff.flows()).as("not only to the new node: points of every node went")
                .anySatisfy(f -> assertThat(f.to()).isNotEqualTo("cache-60"));
    }

    @Test
    void config_vnodesPerWeightDoesNotApply_andSettingsRoundTrip() {
        List<Node> nodes = List.of(Node.of("a", 1), Node.of("b", 2));
        HashRing a = HashRing.of(RingConfig.of("ketama", 1, "ring", 65537), 0, nodes);
        HashRing b = HashRing.of(RingConfig.of("ketama", 4096, "ring", 65537), 0, nodes);
        assertThat(a.fingerprint()).isEqualTo(b.fingerprint());
        assertThat(KETAMA.algorithm()).isEqualTo(RingConfig.Algorithm.KETAMA);
        assertThat(KETAMA.hashName()).isEqualTo("ketama");
        assertThat(KETAMA.algorithmName()).isEqualTo("ring");
        assertThat(RingConfig.ketama().algorithm()).isEqualTo(RingConfig.Algorithm.KETAMA);
        HashRing switched = a.withConfig(b.config());
        assertThat(switched.version()).as("a settings change is a version").isEqualTo(1);
        assertThat(HashRing.diff(a, switched).movedCount()).isZero();
        assertThat(a.toString()).isEqualTo("HashRing[2 nodes, " + a.pointCount() + " ketama points, v0]");
    }

    // ------------------------------------------------------------ shared

    private static void checkAgainstOracle(HashRing ring, List<Node> members, Random rnd, String at) {
        TreeMap<Long, String> oracle = PlacementOracles.ketamaRing(members);
        assertThat(RingPropertiesTest.pointsOf(ring)).as(at + ": points")
                .containsExactly(oracle.keySet().stream().mapToLong(Long::longValue).toArray());
        assertThat(RingPropertiesTest.ownersOf(ring)).as(at + ": owners")
                .containsExactly(oracle.values().toArray(new String[0]));
        assertThat(ring.vnodeCount()).as(at).isEqualTo(PlacementOracles.ketamaVnodes(members));
        assertThat(RingPropertiesTest.countsOf(ring)).as(at + ": counts")
                .isEqualTo(PlacementOracles.ringCounts(members, oracle));
        assertThat(ring.ownership().total()).as(at).isEqualTo(HashRing.HASH_SPACE);
        assertThat(ring.fingerprint()).as(at).isEqualTo(RingPropertiesTest.fingerprintOf(
                RingPropertiesTest.pointsOf(ring), RingPropertiesTest.ownersOf(ring)));
        long owning = oracle.values().stream().distinct().count();
        for (int i = 0; i < 20; i++) {
            String key = RingTesting.randomKey(rnd);
            long h = RingTesting.digest32("MD5", key);
            h = Integer.toUnsignedLong(Integer.reverseBytes((int) h)); // the first four digest bytes, little-endian
            assertThat(ring.hash(key)).as(at + " hash(" + key + ")").isEqualTo(h);
            assertThat(ring.route(key)).as(at + " route(" + key + ")").isEqualTo(PlacementOracles.ringOwner(oracle, h));
            List<String> p = ring.preference(key, 3);
            assertThat(p).as(at).doesNotHaveDuplicates().hasSize((int) Math.min(3, owning));
            assertThat(p.get(0)).as(at).isEqualTo(ring.route(key));
        }
    }

    private static JsonNode set(String name) {
        for (JsonNode s : Vectors.load("ketama-libketama-compat.json").get("sets")) {
            if (s.get("name").asString().equals(name)) {
                return s;
            }
        }
        throw new IllegalStateException("no set " + name);
    }
}
