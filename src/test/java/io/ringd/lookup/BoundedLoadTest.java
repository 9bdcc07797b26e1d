package io.ringd.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.ringd.ring.HashRing;
import io.ringd.ring.KeyHashes;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;
import io.ringd.ring.RingException;
import io.ringd.state.NodeLoads;
import io.ringd.web.problem.ApiException;

/**
 * The bounded-load rule of {@link BoundedLoad}, against a brute-force walk of
 * the whole preference list: the first node with load <= c * mean, else the
 * primary with every node counted as skipped.
 */
class BoundedLoadTest {

    /** Loads given as a map; the mean is over {@code members} (all of them, in ascending id order). */
    record MapReading(Map<String, Double> loads, double mean) implements NodeLoads.Reading {
        static MapReading of(HashRing ring, Map<String, Double> loads) {
            double sum = 0;
            for (Node n : ring.nodes()) {
                sum += loads.getOrDefault(n.id(), 0.0);
            }
            return new MapReading(loads, ring.nodeCount() == 0 ? 0 : sum / ring.nodeCount());
        }

        @Override
        public double load(String node) {
            return loads.getOrDefault(node, 0.0);
        }
    }

    static HashRing ring(RingConfig config, int nodes) {
        List<Node> members = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            members.add(Node.of("node-" + i, 1));
        }
        return HashRing.of(config, 1, members);
    }

    /** The rule read off the whole preference list. */
    static BoundedLoad.Choice bruteForce(HashRing ring, String key, double c, NodeLoads.Reading loads) {
        List<String> walk = ring.preference(key, ring.nodeCount());
        for (int i = 0; i < walk.size(); i++) {
            if (loads.load(walk.get(i)) <= c * loads.mean()) {
                return new BoundedLoad.Choice(walk.get(i), i);
            }
        }
        return new BoundedLoad.Choice(walk.get(0), walk.size());
    }

    // ------------------------------------------------------------ bound

    @Test
    void parseBound_takesDecimalNumbersAboveOneUpToTen() {
        Map<String, Double> ok = Map.of("1.25", 1.25, "2", 2.0, "10", 10.0, "1e1", 10.0, "1.0000001", 1.0000001,
                "10.000", 10.0, "15E-1", 1.5, "1.5e+0", 1.5);
        ok.forEach((text, c) -> assertThat(BoundedLoad.parseBound(text)).as(text).isEqualTo(c));
    }

    @Test
    void parseBound_refusesTheRestNamingBound() {
        List<String> bad = new ArrayList<>(List.of("1", "1.0", "1e0", "0.5", "0", "10.0001", "11", "1e400", "-2",
                "+2", "abc", "", " 1.5", "1.5 ", "NaN", "Infinity", "1.5d", "1.5f", "0x1p1", "1,5", ".5", "2.",
                "1e", "1.5.1"));
        bad.add(null);
        for (String text : bad) {
            assertThatThrownBy(() -> BoundedLoad.parseBound(text)).as("bound %s", text)
                    .isInstanceOfSatisfying(ApiException.class, e -> {
                        assertThat(e.field()).isEqualTo("bound");
                        assertThat(e.problem().status().value()).isEqualTo(400);
                        assertThat(e.getMessage()).startsWith("bound must be a number c with 1 < c <= 10");
                    });
        }
    }

    // ------------------------------------------------------------ the rule

    @Test
    void meanZero_everyNodeQualifies_thePrimaryAnswers() {
        HashRing r = ring(RingConfig.defaults(), 5);
        for (int i = 0; i < 50; i++) {
            long hash = r.hash("k" + i);
            BoundedLoad.Choice c = BoundedLoad.choose(r, hash, 1.25, NodeLoads.Reading.ZERO);
            assertThat(c).isEqualTo(new BoundedLoad.Choice(r.routeHash(hash), 0));
        }
    }

    @Test
    void loadExactlyAtTheLimit_qualifies_justAbove_doesNot() {
        HashRing r = ring(RingConfig.defaults(), 4);
        List<String> walk = r.preference("key", 4);
        // loads 3, 1, 0, 0: mean 1; c = 3 puts the primary exactly at its limit
        Map<String, Double> loads = Map.of(walk.get(0), 3.0, walk.get(1), 1.0);
        MapReading reading = MapReading.of(r, loads);
        assertThat(reading.mean()).isEqualTo(1.0);
        assertThat(BoundedLoad.choose(r, r.hash("key"), 3, reading)).isEqualTo(new BoundedLoad.Choice(walk.get(0), 0));
        assertThat(BoundedLoad.choose(r, r.hash("key"), Math.nextDown(3.0), reading))
                .isEqualTo(new BoundedLoad.Choice(walk.get(1), 1));
        assertThat(BoundedLoad.choose(r, r.hash("key"), 1, reading)).as("c = 1 would take the second too")
                .isEqualTo(new BoundedLoad.Choice(walk.get(1), 1));
        assertThat(BoundedLoad.choose(r, r.hash("key"), Math.nextDown(1.0), reading))
                .isEqualTo(new BoundedLoad.Choice(walk.get(2), 2));
    }

    @Test
    void scalingEveryLoad_changesNoAnswer() {
        HashRing r = ring(RingConfig.defaults(), 6);
        Random rnd = new Random(7);
        Map<String, Double> loads = new HashMap<>();
        Map<String, Double> scaled = new HashMap<>();
        for (Node n : r.nodes()) {
            double l = rnd.nextInt(20);
            loads.put(n.id(), l);
            scaled.put(n.id(), l / 1024); // a power of two: exact
        }
        for (int i = 0; i < 200; i++) {
            long hash = r.hash("k" + i);
            assertThat(BoundedLoad.choose(r, hash, 1.25, MapReading.of(r, scaled)))
                    .isEqualTo(BoundedLoad.choose(r, hash, 1.25, MapReading.of(r, loads)));
        }
    }

    @Test
    void choose_agreesWithTheWholePreferenceList_seeded() {
        List<RingConfig> configs = List.of(RingConfig.defaults(), RingConfig.of("murmur3", 16), RingConfig.ketama(),
                RingConfig.maglev(KeyHashes.md5(), 1009));
        for (long seed = 1; seed <= 40; seed++) {
            Random rnd = new Random(seed);
            RingConfig config = configs.get((int) (seed % configs.size()));
            HashRing r = ring(config, 1 + rnd.nextInt(90));
            Map<String, Double> loads = new HashMap<>();
            for (Node n : r.nodes()) {
                // many ties and zeros, and a few heavy nodes, so that walks are sometimes long
                double l = switch (rnd.nextInt(4)) {
                    case 0 -> 0;
                    case 1 -> rnd.nextInt(3);
                    case 2 -> rnd.nextInt(100);
                    default -> rnd.nextDouble() * 1000;
                };
                loads.put(n.id(), l);
            }
            MapReading reading = MapReading.of(r, loads);
            for (int k = 0; k < 200; k++) {
                String key = "key-" + seed + "-" + k;
                double c = 1 + (1 + rnd.nextInt(900)) / 100.0;
                BoundedLoad.Choice got = BoundedLoad.choose(r, r.hash(key), c, reading);
                assertThat(got).as("seed %d, %s, key %s, c %s", seed, config.algorithm(), key, c)
                        .isEqualTo(bruteForce(r, key, c, reading));
                // no node above its bound while another, earlier in the walk, is below it
                List<String> walk = r.preference(key, r.nodeCount());
                assertThat(walk.subList(0, Math.min(got.skipped(), walk.size())))
                        .allMatch(n -> reading.load(n) > c * reading.mean());
                if (got.skipped() < walk.size()) {
                    assertThat(reading.load(got.node())).isLessThanOrEqualTo(c * reading.mean());
                } else {
                    assertThat(got.node()).isEqualTo(walk.get(0));
                }
            }
        }
    }

    @Test
    void longWalks_growPastTheFirstProbes() {
        HashRing r = ring(RingConfig.defaults(), 100);
        String key = "walk";
        List<String> walk = r.preference(key, 100);
        for (int last : new int[] {0, 3, 4, 5, 16, 17, 63, 64, 65, 99}) {
            // every node before position `last` is heavy, the rest light
            Map<String, Double> loads = new HashMap<>();
            for (int i = 0; i < 100; i++) {
                loads.put(walk.get(i), i < last ? 1000.0 : 1.0);
            }
            MapReading reading = MapReading.of(r, loads);
            assertThat(BoundedLoad.choose(r, r.hash(key), 1.01, reading)).as("light from %d", last)
                    .isEqualTo(new BoundedLoad.Choice(walk.get(last), last));
        }
    }

    @Test
    void noNodeWithinItsBound_thePrimaryAnswers_withEveryNodeSkipped() {
        // Only possible when the mean counts members outside the walk (members that own no point):
        // a reading whose mean is below every load stands in for that.
        HashRing r = ring(RingConfig.defaults(), 7);
        Map<String, Double> loads = new HashMap<>();
        r.nodes().forEach(n -> loads.put(n.id(), 5.0));
        NodeLoads.Reading reading = new MapReading(loads, 1.0);
        for (int i = 0; i < 20; i++) {
            long hash = r.hash("k" + i);
            assertThat(BoundedLoad.choose(r, hash, 2, reading)).isEqualTo(new BoundedLoad.Choice(r.routeHash(hash), 7));
        }
    }

    @Test
    void onTheWholeWalk_someNodeIsAlwaysWithinItsBound() {
        // with c > 1 and every member in the walk, the sum of the loads cannot exceed c times itself
        Random rnd = new Random(11);
        for (int t = 0; t < 200; t++) {
            HashRing r = ring(RingConfig.defaults(), 1 + rnd.nextInt(12));
            Map<String, Double> loads = new HashMap<>();
            r.nodes().forEach(n -> loads.put(n.id(), rnd.nextDouble() * (rnd.nextBoolean() ? 1 : 1e6)));
            MapReading reading = MapReading.of(r, loads);
            BoundedLoad.Choice c = BoundedLoad.choose(r, r.hash("k" + t), Math.nextUp(1.0), reading);
            assertThat(c.skipped()).as("trial %d", t).isLessThan(r.nodeCount());
        }
    }

    @Test
    void preferenceLists_arePrefixesOfLongerOnes_inEveryPlacement() {
        // what choose relies on to read the walk a few nodes at a time
        for (RingConfig config : List.of(RingConfig.defaults(), RingConfig.of("sha256", 3), RingConfig.ketama(),
                RingConfig.maglev(KeyHashes.murmur3(), 1009))) {
            HashRing r = ring(config, 40);
            for (int k = 0; k < 100; k++) {
                String key = "prefix-" + k;
                List<String> all = r.preference(key, 40);
                assertThat(all).hasSize(40).doesNotHaveDuplicates();
                for (int n : new int[] {1, 4, 16, 39}) {
                    assertThat(r.preference(key, n)).as("%s %s n=%d", config.algorithm(), key, n)
                            .isEqualTo(all.subList(0, n));
                }
            }
        }
    }

    @Test
    void emptyRing_hasNoNodes() {
        HashRing r = HashRing.empty();
        assertThatThrownBy(() -> BoundedLoad.choose(r, 42, 2, NodeLoads.Reading.ZERO))
                .isInstanceOf(RingException.NoNodes.class);
    }
}
