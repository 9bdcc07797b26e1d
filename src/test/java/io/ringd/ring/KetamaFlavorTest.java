package io.ringd.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;

/**
 * The ketama flavors and a node's {@code hashKey} (docs/ring.md section 14): against
 * vectors/ketama-flavors.json, against {@link PlacementOracles#ketamaRing(java.util.Collection,
 * KetamaFlavor)} over random memberships and changes, and the rules of placement strings.
 */
class KetamaFlavorTest {

    private static final String FILE = "ketama-flavors.json";

    // ------------------------------------------------------------ the vectors

    @Test
    void vectors_matchPointsPerNodeFingerprintAndLookups() {
        JsonNode cases = Vectors.load(FILE).get("cases");
        assertThat(cases.size()).isGreaterThanOrEqualTo(14);
        int lookups = 0;
        for (JsonNode c : cases) {
            String name = c.get("name").asString();
            HashRing ring = HashRing.of(Vectors.settings(c), 0, Vectors.nodes(c));
            assertThat(ring.pointCount()).as(name + ": pointCount").isEqualTo(c.get("pointCount").asInt());
            Map<String, Integer> points = new TreeMap<>();
            for (Ownership.Share s : ring.ownership().shares()) {
                points.put(s.node().id(), s.points());
            }
            Map<String, Integer> expected = new TreeMap<>();
            c.get("points").properties().forEach(e -> expected.put(e.getKey(), e.getValue().asInt()));
            assertThat(points).as(name + ": points per node").isEqualTo(expected);
            assertThat(ring.fingerprint()).as(name + ": fingerprint").isEqualTo(c.get("fingerprint").asString());
            for (JsonNode l : c.get("lookups")) {
                assertThat(ring.route(l.get("key").asString())).as(name + ": route(" + l.get("key") + ")")
                        .isEqualTo(l.get("node").asString());
                lookups++;
            }
        }
        assertThat(lookups).isGreaterThan(1000);
    }

    @Test
    void vectors_unequalWeights_flavorsDiffer_equalWeightsAgree() {
        JsonNode cases = Vectors.load(FILE).get("cases");
        Map<String, String> fingerprintBySet = new TreeMap<>();
        int differing = 0;
        for (JsonNode c : cases) {
            String name = c.get("name").asString();
            if (name.startsWith("hashKey")) {
                continue;
            }
            String set = name.substring(name.indexOf(' ') + 1);
            String fp = c.get("fingerprint").asString();
            String seen = fingerprintBySet.putIfAbsent(set, fp);
            if (set.equals("weights 1,1,1,1,1,1")) {
                assertThat(fp).as("equal weights: every flavor places alike").isEqualTo(seen == null ? fp : seen);
            } else if (seen != null && !seen.equals(fp)) {
                differing++;
            }
        }
        assertThat(differing).as("unequal weight sets where a flavor differs from libketama's").isGreaterThan(2);
    }

    @Test
    void digests_eachFlavorsArithmetic() {
        // each weight set of the vectors has one node where one flavor's arithmetic falls under a whole count:
        // 1,1,1,2,14,21 (sum 40, 6 nodes): libketama's double product rounded to float floors to 125
        assertThat(Ketama.digests(KetamaFlavor.LIBKETAMA, 21, 40, 6)).isEqualTo(125);
        assertThat(Ketama.digests(KetamaFlavor.LIBMEMCACHED, 21, 40, 6)).isEqualTo(126);
        assertThat(Ketama.digests(KetamaFlavor.HASHRING, 21, 40, 6)).isEqualTo(126);
        // 1,1,1,1,19,25 (sum 48): only hashring's doubles reach 125
        assertThat(Ketama.digests(KetamaFlavor.LIBKETAMA, 25, 48, 6)).isEqualTo(124);
        assertThat(Ketama.digests(KetamaFlavor.LIBMEMCACHED, 25, 48, 6)).isEqualTo(124);
        assertThat(Ketama.digests(KetamaFlavor.HASHRING, 25, 48, 6)).isEqualTo(125);
        // 1,1,1,1,27,29 (sum 60): only libmemcached's float products fall to 115
        assertThat(Ketama.digests(KetamaFlavor.LIBKETAMA, 29, 60, 6)).isEqualTo(116);
        assertThat(Ketama.digests(KetamaFlavor.LIBMEMCACHED, 29, 60, 6)).isEqualTo(115);
        assertThat(Ketama.digests(KetamaFlavor.HASHRING, 29, 60, 6)).isEqualTo(116);
        for (KetamaFlavor f : KetamaFlavor.values()) {
            assertThat(Ketama.digests(f, 1, 6, 6)).as(f + ": equal weights").isEqualTo(40);
            assertThat(Ketama.digests(f, 0.001, 10_000, 2)).as(f + ": at least one").isEqualTo(1);
        }
    }

    @Test
    void flavor_randomMembershipsAndChanges_matchTheOracle() {
        long seed = RingTesting.seed("flavor_randomMembershipsAndChanges_matchTheOracle");
        Random rnd = new Random(seed);
        for (KetamaFlavor flavor : KetamaFlavor.values()) {
            HashRing ring = HashRing.empty(RingConfig.ketama(flavor));
            for (int step = 0; step < 40; step++) {
                String at = "seed " + seed + ", " + flavor + ", step " + step;
                List<Change> batch = new ArrayList<>();
                java.util.Set<String> ids = new java.util.HashSet<>();
                for (int c = 1 + rnd.nextInt(3); c > 0; c--) {
                    String id = "10.0." + rnd.nextInt(3) + "." + rnd.nextInt(6) + ":11211";
                    if (!ids.add(id)) {
                        continue;
                    }
                    if (ring.contains(id) && rnd.nextInt(4) == 0) {
                        batch.add(Change.remove(id));
                    } else {
                        String hashKey = rnd.nextInt(3) == 0 ? "host-" + id.hashCode() + "/" + id : null;
                        batch.add(Change.put(new Node(id, 1 + rnd.nextInt(30), null, hashKey)));
                    }
                }
                HashRing before = ring;
                ring = ring.apply(batch);
                TreeMap<Long, String> oracle = PlacementOracles.ketamaRing(ring.nodes(), flavor);
                assertThat(RingPropertiesTest.pointsOf(ring)).as(at + ": points")
                        .containsExactly(oracle.keySet().stream().mapToLong(Long::longValue).toArray());
                assertThat(RingPropertiesTest.ownersOf(ring)).as(at + ": owners")
                        .containsExactly(oracle.values().toArray(new String[0]));
                assertThat(ring.vnodeCount()).as(at).isEqualTo(PlacementOracles.ketamaVnodes(ring.nodes(), flavor));
                assertThat(RingPropertiesTest.countsOf(ring)).as(at + ": counts")
                        .isEqualTo(PlacementOracles.ringCounts(ring.nodes(), oracle));
                if (!before.isEmpty() && !ring.isEmpty()) {
                    RingDiff diff = HashRing.diff(before, ring);
                    Map<String, Long> flows = PlacementOracles.ringFlows(PlacementOracles.ringOf(before), oracle);
                    assertThat(PlacementOracles.flowsOf(diff)).as(at + ": flows").isEqualTo(flows);
                    assertThat(diff.movedCount()).as(at + ": moved").isEqualTo(PlacementOracles.sum(flows));
                }
            }
        }
    }

    @Test
    void flavorChange_isAVersion_withAnExactDiff() {
        List<Node> nodes = List.of(Node.of("a", 1), Node.of("b", 1), Node.of("c", 1), Node.of("d", 1),
                Node.of("e", 27), Node.of("f", 29));
        HashRing libketama = HashRing.of(RingConfig.ketama(), 0, nodes);
        HashRing libmemcached = libketama.withConfig(RingConfig.ketama(KetamaFlavor.LIBMEMCACHED));
        assertThat(libmemcached.version()).isEqualTo(1);
        assertThat(libmemcached.config().ketamaFlavorName()).isEqualTo("libmemcached");
        assertThat(libmemcached.fingerprint()).isNotEqualTo(libketama.fingerprint());
        RingDiff diff = HashRing.diff(libketama, libmemcached);
        Map<String, Long> flows = PlacementOracles.ringFlows(PlacementOracles.ringOf(libketama),
                PlacementOracles.ketamaRing(nodes, KetamaFlavor.LIBMEMCACHED));
        assertThat(PlacementOracles.flowsOf(diff)).isEqualTo(flows);
        assertThat(diff.movedCount()).isPositive().isEqualTo(PlacementOracles.sum(flows));
        assertThat(libmemcached.withConfig(RingConfig.ketama(KetamaFlavor.LIBMEMCACHED))).isSameAs(libmemcached);
    }

    @Test
    void flavor_onlyWithTheKetamaHash() {
        assertThatThrownBy(() -> new RingConfig(KeyHashes.md5(), 128, RingConfig.Algorithm.RING, 65537,
                KetamaFlavor.HASHRING)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ketamaFlavor applies with hash=ketama only: hashring");
        assertThatThrownBy(() -> RingConfig.of("ketama", 128, "ring", 65537, "spymemcached"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ketamaFlavor must be one of [libketama, libmemcached, hashring]: spymemcached");
        // Maglev keyed by ketama's hash carries the setting (unused), so that it round-trips
        RingConfig maglev = RingConfig.of("ketama", 128, "maglev", 1009, "libmemcached");
        assertThat(maglev.ketamaFlavorName()).isEqualTo("libmemcached");
        assertThat(RingConfig.defaults().ketamaFlavorName()).isNull();
        assertThat(RingConfig.ketama().ketamaFlavorName()).isEqualTo("libketama");
    }

    // ------------------------------------------------------------ hashKey

    @Test
    void hashKey_placesLikeANodeOfThatName_forEveryPlacement() {
        // ids and hash keys in the same order, so collisions and Maglev's turns fall alike
        List<Node> named = List.of(Node.of("h1", 1), Node.of("h2", 2), Node.of("h3", 0.5));
        List<Node> keyed = List.of(new Node("a", 1, null, "h1"), new Node("b", 2, null, "h2"),
                new Node("c", 0.5, null, "h3"));
        Map<String, String> rename = Map.of("h1", "a", "h2", "b", "h3", "c");
        for (RingConfig config : List.of(RingConfig.defaults(), RingConfig.of("murmur3", 64),
                RingConfig.ketama(KetamaFlavor.LIBMEMCACHED), RingConfig.maglev(KeyHashes.md5(), 1009))) {
            HashRing byName = HashRing.of(config, 0, named);
            HashRing byKey = HashRing.of(config, 0, keyed);
            String at = config.toString();
            if (config.algorithm() == RingConfig.Algorithm.MAGLEV) {
                String[] a = PlacementOracles.tableOf(byName);
                String[] b = PlacementOracles.tableOf(byKey);
                for (int e = 0; e < a.length; e++) {
                    assertThat(b[e]).as(at + " entry " + e).isEqualTo(rename.get(a[e]));
                }
                assertThat(b).as(at).isEqualTo(PlacementOracles.maglevTable(keyed, 1009));
            } else {
                assertThat(RingPropertiesTest.pointsOf(byKey)).as(at).isEqualTo(RingPropertiesTest.pointsOf(byName));
                String[] owners = RingPropertiesTest.ownersOf(byName);
                for (int i = 0; i < owners.length; i++) {
                    owners[i] = rename.get(owners[i]);
                }
                assertThat(RingPropertiesTest.ownersOf(byKey)).as(at).isEqualTo(owners);
            }
            assertThat(byKey.route("user:42")).as(at).isEqualTo(rename.get(byName.route("user:42")));
        }
    }

    @Test
    void rename_keepingThePlacementString_movesNothing() {
        HashRing ring = HashRing.of(RingConfig.ketama(KetamaFlavor.LIBMEMCACHED), 0,
                List.of(Node.of("10.0.0.7:11211", 1), Node.of("10.0.0.8:11211", 2)));
        HashRing renamed = ring.apply(List.of(Change.remove("10.0.0.7:11211"),
                Change.put(new Node("cache-7", 1, null, "10.0.0.7:11211"))));
        RingDiff diff = HashRing.diff(ring, renamed);
        assertThat(RingPropertiesTest.pointsOf(renamed)).isEqualTo(RingPropertiesTest.pointsOf(ring));
        assertThat(diff.movedCount()).as("only the name changed hands").isEqualTo(
                ring.ownership().shares().get(0).count());
        assertThat(diff.flows()).extracting(f -> f.from() + "->" + f.to())
                .containsExactly("10.0.0.7:11211->cache-7");
        // giving the node its old string back under its new name changes nothing further
        HashRing same = renamed.put(new Node("cache-7", 1, null, "10.0.0.7:11211"));
        assertThat(same).isSameAs(renamed);
    }

    @Test
    void hashKeyChange_isAVersion_placedAfresh_sameAsFromScratch() {
        long seed = RingTesting.seed("hashKeyChange_isAVersion_placedAfresh_sameAsFromScratch");
        Random rnd = new Random(seed);
        for (RingConfig config : List.of(new RingConfig(KeyHashes.md5(), 16), RingConfig.ketama(),
                RingConfig.ketama(KetamaFlavor.HASHRING), RingConfig.maglev(KeyHashes.murmur3(), 1009))) {
            HashRing ring = HashRing.of(config, 0, List.of(Node.of("a", 1), Node.of("b", 2), Node.of("c", 1)));
            for (int step = 0; step < 30; step++) {
                String at = "seed " + seed + ", " + config + ", step " + step;
                String id = List.of("a", "b", "c").get(rnd.nextInt(3));
                Node old = ring.node(id).orElseThrow();
                String key = rnd.nextInt(4) == 0 ? null : "hk/" + id + "/" + rnd.nextInt(4);
                HashRing after = ring.put(old.withHashKey(key));
                if (java.util.Objects.equals(key, old.hashKey())) {
                    assertThat(after).as(at).isSameAs(ring);
                    continue;
                }
                assertThat(after.version()).as(at).isEqualTo(ring.version() + 1);
                HashRing fresh = HashRing.of(config, after.version(), after.nodes());
                assertThat(after.fingerprint()).as(at).isEqualTo(fresh.fingerprint());
                assertThat(RingPropertiesTest.countsOf(after)).as(at).isEqualTo(RingPropertiesTest.countsOf(fresh));
                RingDiff diff = HashRing.diff(ring, after);
                Map<String, Long> flows = config.algorithm() == RingConfig.Algorithm.MAGLEV
                        ? PlacementOracles.tableFlows(PlacementOracles.tableOf(ring), PlacementOracles.tableOf(fresh))
                        : PlacementOracles.ringFlows(PlacementOracles.ringOf(ring), PlacementOracles.ringOf(fresh));
                assertThat(PlacementOracles.flowsOf(diff)).as(at).isEqualTo(flows);
                ring = after;
            }
        }
    }

    @Test
    void twoNodesPlacedByOneString_areRefused_andNothingChanges() {
        HashRing ring = HashRing.of(RingConfig.ketama(), 0,
                List.of(new Node("cache-1", 1, null, "localhost/10.0.0.1:11211"), Node.of("10.0.0.2:11211", 1)));
        assertThatThrownBy(() -> ring.put(new Node("cache-9", 1, null, "localhost/10.0.0.1:11211")))
                .isInstanceOf(RingException.DuplicatePlacement.class)
                .hasMessage("nodes cache-1 and cache-9 would both be placed by \"localhost/10.0.0.1:11211\" (a hashKey, "
                        + "or an id where a node has none): give cache-9 a hashKey of its own");
        assertThatThrownBy(() -> ring.put(new Node("cache-2", 1, null, "10.0.0.2:11211")))
                .as("a hashKey equal to another node's id").isInstanceOf(RingException.DuplicatePlacement.class)
                .satisfies(e -> assertThat(((RingException.DuplicatePlacement) e).id()).isEqualTo("cache-2"));
        assertThatThrownBy(() -> ring.put(Node.of("localhost/10.0.0.1:11211".replace('/', '-'), 1)
                .withHashKey("localhost/10.0.0.1:11211"))).isInstanceOf(RingException.DuplicatePlacement.class);
        assertThatThrownBy(() -> HashRing.of(RingConfig.defaults(), 0,
                List.of(new Node("x", 1, null, "k"), new Node("y", 1, null, "k"))))
                .isInstanceOf(RingException.DuplicatePlacement.class);
        // a node's hashKey equal to its own id is its own placement, not a clash
        assertThat(ring.put(new Node("10.0.0.2:11211", 1, null, "10.0.0.2:11211")).version()).isEqualTo(1);
        assertThat(ring.version()).isZero();
    }

    @Test
    void hashKey_bounds() {
        String longest = "é".repeat(2048); // 4096 bytes
        assertThat(new Node("a", 1, null, longest).placementKey()).isEqualTo(longest);
        assertThatThrownBy(() -> new Node("a", 1, null, longest + "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("hashKey must be 1 to 4096 bytes of UTF-8: 4097 bytes");
        assertThatThrownBy(() -> new Node("a", 1, null, "")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("hashKey must be 1 to 4096 bytes of UTF-8: \"\"");
        assertThatThrownBy(() -> new Node("a", 1, null, "x\uD800y")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("hashKey has an unpaired surrogate at index 1");
        assertThat(new Node("a", 1, null, "\uD83D\uDE00 / \u0000 tab\t").hashKey()).hasSize(11);
        assertThat(Node.of("a", 1).placementKey()).isEqualTo("a");
    }

    @Test
    void labels_nameThePlacementString() {
        HashRing ketama = HashRing.of(RingConfig.ketama(), 0, List.of(new Node("cache-1", 1, null, "h/1:11211")));
        RingPoints.Point first = RingPoints.points(ketama).get(0);
        assertThat(first.node()).isEqualTo("cache-1");
        assertThat(first.vnode()).startsWith("h/1:11211-");
        HashRing ring = HashRing.of(RingConfig.defaults(), 0, List.of(new Node("cache-1", 1, null, "ключ")));
        long point = RingPoints.points(ring).get(0).hash();
        assertThat(VnodeLabels.label(ring, "cache-1", point)).startsWith("ключ#");
        assertThat(VnodeLabels.of(ring, "cache-1").label(point))
                .isEqualTo(VnodeLabels.label(ring, "cache-1", point));
    }
}
