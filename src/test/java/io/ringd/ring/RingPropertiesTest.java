package io.ringd.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The invariants of the ring contract, over random memberships, keys and
 * changes, against {@link LinearScanRing}, a brute-force oracle rebuilt from
 * scratch. Plain JUnit over a seeded {@link Random}: the seed is
 * {@link RingTesting#DEFAULT_SEED} unless {@code -Dringd.seed=<seed>} is
 * given, is printed, and is in every assertion message, so a failure
 * replays.
 *
 * <p>Each test runs for md5, murmur3, sha256 and a coarse hash with only 301
 * values, which makes vnodes collide all the time and puts points on 0 and
 * 2^32-1. Rings are kept small (at most 8 nodes, 8 points per weight) so a
 * linear scan is cheap.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a lookup that never ends fails, not hangs
class RingPropertiesTest {

    private static final int ROUNDS = 800;
    private static final int MAX_NODES = 8;
    private static final int MAX_VNODES_PER_WEIGHT = 8;

    // ------------------------------------------------------------ lookups

    @ParameterizedTest
    @ValueSource(strings = {"md5", "murmur3", "sha256", "coarse"})
    void pointsLookupsAndOwnership_matchTheLinearScanOracle(String hashName) {
        long seed = RingTesting.seed("pointsLookupsAndOwnership_matchTheLinearScanOracle[" + hashName + "]");
        Random rnd = new Random(seed);
        KeyHash hash = RingTesting.hashNamed(hashName);
        int collided = 0;
        for (int round = 0; round < ROUNDS; round++) {
            RingConfig config = new RingConfig(hash, 1 + rnd.nextInt(MAX_VNODES_PER_WEIGHT));
            List<Node> members = RingTesting.randomMembers(rnd, 1 + rnd.nextInt(MAX_NODES));
            HashRing ring = HashRing.of(config, 0, members);
            LinearScanRing oracle = new LinearScanRing(hash, config.vnodesPerWeight(), members);
            String at = "seed " + seed + " " + hashName + " round " + round + " vpw " + config.vnodesPerWeight()
                    + " " + members;
            checkRing(ring, oracle, rnd, at);
            if (ring.pointCount() < ring.vnodeCount()) {
                collided++;
            }
        }
        if (hashName.equals("coarse")) {
            assertThat(collided).as("seed " + seed + ": the coarse hash makes collisions").isGreaterThan(ROUNDS / 4);
        }
    }

    // ------------------------------------------------------------ changes and diffs

    @ParameterizedTest
    @ValueSource(strings = {"md5", "murmur3", "sha256", "coarse"})
    void changes_keepTheInvariantsAndDiffsAreExact(String hashName) {
        long seed = RingTesting.seed("changes_keepTheInvariantsAndDiffsAreExact[" + hashName + "]");
        Random rnd = new Random(seed);
        KeyHash hash = RingTesting.hashNamed(hashName);
        int[] kinds = new int[5];
        int removalsWithContenders = 0;
        for (int round = 0; round < ROUNDS * 2; round++) {
            RingConfig config = new RingConfig(hash, 1 + rnd.nextInt(MAX_VNODES_PER_WEIGHT));
            int vpw = config.vnodesPerWeight();
            List<Node> members = RingTesting.randomMembers(rnd, 1 + rnd.nextInt(MAX_NODES));
            HashRing before = HashRing.of(config, rnd.nextInt(1000), members);
            LinearScanRing oBefore = new LinearScanRing(hash, vpw, members);
            Map<String, Node> expected = new TreeMap<>();
            members.forEach(n -> expected.put(n.id(), n));

            int kind = rnd.nextInt(5);
            kinds[kind]++;
            List<Change> changes = new ArrayList<>();
            String changedId;
            switch (kind) {
                case 0: { // add X
                    do {
                        changedId = RingTesting.randomId(rnd);
                    } while (expected.containsKey(changedId));
                    Node n = RingTesting.randomNode(rnd, changedId);
                    changes.add(Change.put(n));
                    expected.put(changedId, n);
                    break;
                }
                case 1: { // remove X (possibly the last node)
                    changedId = members.get(rnd.nextInt(members.size())).id();
                    changes.add(Change.remove(changedId));
                    expected.remove(changedId);
                    break;
                }
                case 2: { // reweight X, same zone
                    Node old = members.get(rnd.nextInt(members.size()));
                    changedId = old.id();
                    double w;
                    do {
                        w = RingTesting.randomWeight(rnd);
                    } while (w == old.weight());
                    Node n = new Node(changedId, w, old.zone());
                    changes.add(Change.put(n));
                    expected.put(changedId, n);
                    break;
                }
                case 3: { // zone only
                    Node old = members.get(rnd.nextInt(members.size()));
                    changedId = old.id();
                    String zone = Objects.equals(old.zone(), "other") ? null : "other";
                    Node n = new Node(changedId, old.weight(), zone);
                    changes.add(Change.put(n));
                    expected.put(changedId, n);
                    break;
                }
                default: { // a random batch of distinct ids
                    changedId = null;
                    List<String> ids = new ArrayList<>(expected.keySet());
                    Collections.shuffle(ids, rnd);
                    int size = 1 + rnd.nextInt(4);
                    for (int i = 0; i < size; i++) {
                        if (i < ids.size() && rnd.nextBoolean()) {
                            String id = ids.get(i);
                            if (rnd.nextBoolean()) {
                                changes.add(Change.remove(id));
                                expected.remove(id);
                            } else {
                                Node n = RingTesting.randomNode(rnd, id);
                                changes.add(Change.put(n));
                                expected.put(id, n);
                            }
                        } else {
                            String fresh;
                            do {
                                fresh = RingTesting.randomId(rnd);
                            } while (expected.containsKey(fresh) || before.contains(fresh));
                            Node n = RingTesting.randomNode(rnd, fresh);
                            changes.add(Change.put(n));
                            expected.put(fresh, n);
                        }
                    }
                }
            }
            final String x = changedId;
            String at = "seed " + seed + " " + hashName + " round " + round + " vpw " + vpw + " " + members
                    + " then " + changes;

            HashRing after = before.apply(changes);
            Map<String, Node> unchanged = new TreeMap<>();
            members.forEach(n -> unchanged.put(n.id(), n));
            if (expected.equals(unchanged)) { // a batch that puts nodes as they are
                assertThat(after).as(at + ": a change that changes nothing").isSameAs(before);
                continue;
            }
            assertThat(after.version()).as(at + ": one version per accepted change").isEqualTo(before.version() + 1);
            assertThat(after.nodes()).as(at + ": members").containsExactlyElementsOf(expected.values());
            LinearScanRing oAfter = new LinearScanRing(hash, vpw, expected.values());
            checkRing(after, oAfter, rnd, at);

            RingDiff diff = HashRing.diff(before, after);
            assertThat(diff.fromVersion()).as(at).isEqualTo(before.version());
            assertThat(diff.toVersion()).as(at).isEqualTo(after.version());
            checkDiff(diff, oBefore, oAfter, rnd, at);
            checkDiff(HashRing.diff(after, before), oAfter, oBefore, rnd, at + " (reversed)");

            Map<String, Long> countBefore = countsOf(before);
            Map<String, Long> countAfter = countsOf(after);
            switch (kind) {
                case 0:
                    // 1. adding X: every value that moves, moves to X
                    assertThat(diff.flows()).as(at + ": invariant 1").allSatisfy(f -> {
                        assertThat(f.to()).as(at + ": invariant 1").isEqualTo(x);
                        assertThat(f.from()).as(at + ": invariant 1").isNotNull();
                    });
                    assertThat(diff.movedCount()).as(at + ": what X owns after is what moved")
                            .isEqualTo(countAfter.get(x));
                    break;
                case 1:
                    // 2. removing X: every value that moves, moves from X; as many as X owned
                    assertThat(diff.flows()).as(at + ": invariant 2")
                            .allSatisfy(f -> assertThat(f.from()).as(at + ": invariant 2").isEqualTo(x));
                    assertThat(diff.movedCount()).as(at + ": invariant 2, moved = X's count before")
                            .isEqualTo(countBefore.get(x));
                    if (!after.isEmpty()) {
                        if (checkRemovalKeepsPreferenceOrder(before, after, oBefore, x, rnd, at)) {
                            removalsWithContenders++;
                        }
                    }
                    break;
                case 2:
                    // 3. reweighting X only moves values to or from X
                    assertThat(diff.flows()).as(at + ": invariant 3")
                            .allSatisfy(f -> assertThat(x.equals(f.from()) || x.equals(f.to()))
                                    .as(at + ": invariant 3, flow " + f).isTrue());
                    break;
                case 3:
                    assertThat(diff.movedCount()).as(at + ": a zone change moves nothing").isZero();
                    assertThat(after.fingerprint()).as(at + ": the fingerprint ignores zones")
                            .isEqualTo(before.fingerprint());
                    assertThat(after.node(x).orElseThrow().zone()).as(at).isEqualTo(expected.get(x).zone());
                    break;
                default:
                    break;
            }
        }
        for (int kind = 0; kind < kinds.length; kind++) {
            assertThat(kinds[kind]).as("seed " + seed + ": change kind " + kind + " was tried").isPositive();
        }
        if (hashName.equals("coarse")) {
            assertThat(removalsWithContenders).as("seed " + seed + ": removals of a node sharing points")
                    .isPositive();
        }
    }

    /**
     * Invariant 5: removing X keeps the other nodes of every preference list
     * in the same relative order. Exactly so when X shares none of its points
     * with another node. A node that placed a vnode on a point X won (a
     * collision) inherits that point and may move forward, so under
     * collisions the order is kept among the nodes that did not share a
     * point with X. Returns whether X had such contenders.
     */
    private static boolean checkRemovalKeepsPreferenceOrder(HashRing before, HashRing after, LinearScanRing oBefore,
            String x, Random rnd, String at) {
        Set<String> contenders = oBefore.contendersOf(x);
        for (int i = 0; i < 20; i++) {
            String key = RingTesting.randomKey(rnd);
            List<String> fullBefore = new ArrayList<>(before.preference(key, before.nodeCount()));
            List<String> fullAfter = new ArrayList<>(after.preference(key, after.nodeCount()));
            fullBefore.remove(x);
            fullBefore.removeAll(contenders);
            fullAfter.removeAll(contenders);
            assertThat(fullAfter).as(at + ": invariant 5 for key " + key + " (contenders " + contenders + ")")
                    .containsExactlyElementsOf(fullBefore);
            if (contenders.isEmpty()) {
                int n = 1 + rnd.nextInt(4);
                List<String> shortBefore = new ArrayList<>(before.preference(key, n));
                shortBefore.remove(x);
                List<String> shortAfter = after.preference(key, n);
                assertThat(shortAfter.subList(0, shortBefore.size()))
                        .as(at + ": invariant 5 for key " + key + ", n " + n + ", after " + shortAfter)
                        .containsExactlyElementsOf(shortBefore);
            }
        }
        return !contenders.isEmpty();
    }

    // ------------------------------------------------------------ empty rings

    @ParameterizedTest
    @ValueSource(strings = {"md5", "murmur3", "sha256", "coarse"})
    void diff_fromAndToAnEmptyRing_movesTheWholeSpaceFromAndToNull(String hashName) {
        long seed = RingTesting.seed("diff_fromAndToAnEmptyRing_movesTheWholeSpaceFromAndToNull[" + hashName + "]");
        Random rnd = new Random(seed);
        KeyHash hash = RingTesting.hashNamed(hashName);
        for (int round = 0; round < ROUNDS / 3; round++) {
            RingConfig config = new RingConfig(hash, 1 + rnd.nextInt(MAX_VNODES_PER_WEIGHT));
            List<Node> members = RingTesting.randomMembers(rnd, 1 + rnd.nextInt(MAX_NODES));
            HashRing ring = HashRing.of(config, 1, members);
            HashRing empty = HashRing.empty(config);
            LinearScanRing oracle = new LinearScanRing(hash, config.vnodesPerWeight(), members);
            LinearScanRing none = new LinearScanRing(hash, config.vnodesPerWeight(), List.of());
            String at = "seed " + seed + " " + hashName + " round " + round + " " + members;

            Map<String, Long> owned = new TreeMap<>(countsOf(ring));
            owned.values().removeIf(c -> c == 0);
            for (boolean growing : new boolean[] {true, false}) {
                RingDiff d = growing ? HashRing.diff(empty, ring) : HashRing.diff(ring, empty);
                String what = at + (growing ? " from empty" : " to empty");
                checkDiff(d, growing ? none : oracle, growing ? oracle : none, rnd, what);
                assertThat(d.movedCount()).as(what).isEqualTo(1L << 32);
                assertThat(d.movedShare()).as(what).isEqualTo(1.0);
                Map<String, Long> flows = new TreeMap<>();
                for (RingDiff.Flow f : d.flows()) {
                    assertThat(growing ? f.from() : f.to()).as(what + ": the empty side is null").isNull();
                    flows.put(growing ? f.to() : f.from(), f.count());
                }
                assertThat(flows).as(what + ": flows are the ownership counts").isEqualTo(owned);
                List<RingDiff.Range> ranges = d.ranges();
                assertThat(ranges.get(0).start()).as(what).isZero();
                assertThat(ranges.get(ranges.size() - 1).end()).as(what).isEqualTo(RingTesting.MAX_HASH);
                for (int i = 1; i < ranges.size(); i++) {
                    assertThat(ranges.get(i).start()).as(what + ": contiguous").isEqualTo(ranges.get(i - 1).end() + 1);
                }
            }
            // removing every member gives the same empty ring, version by version
            List<Change> removeAll = new ArrayList<>();
            members.forEach(n -> removeAll.add(Change.remove(n.id())));
            HashRing emptied = ring.apply(removeAll);
            assertThat(emptied.isEmpty()).as(at).isTrue();
            assertThat(emptied.version()).as(at).isEqualTo(2);
            assertThat(emptied.fingerprint()).as(at).isEqualTo(empty.fingerprint());
            assertThat(HashRing.diff(ring, emptied).ranges()).as(at)
                    .containsExactlyElementsOf(HashRing.diff(ring, empty).ranges());
            RingDiff nothing = HashRing.diff(empty, emptied);
            assertThat(nothing.movedCount()).as(at).isZero();
            assertThat(nothing.flows()).as(at).isEmpty();
            assertThat(nothing.rangeCount()).as(at).isZero();
        }
    }

    // ------------------------------------------------------------ order independence

    @ParameterizedTest
    @ValueSource(strings = {"md5", "murmur3", "sha256", "coarse"})
    void anyOrderOfOperations_buildsTheSameRing(String hashName) {
        long seed = RingTesting.seed("anyOrderOfOperations_buildsTheSameRing[" + hashName + "]");
        Random rnd = new Random(seed);
        KeyHash hash = RingTesting.hashNamed(hashName);
        for (int round = 0; round < ROUNDS / 2; round++) {
            RingConfig config = new RingConfig(hash, 1 + rnd.nextInt(MAX_VNODES_PER_WEIGHT));
            List<Node> target = RingTesting.randomMembers(rnd, 1 + rnd.nextInt(MAX_NODES));
            String at = "seed " + seed + " " + hashName + " round " + round + " " + target;
            HashRing reference = HashRing.of(config, 0, target);
            LinearScanRing oracle = new LinearScanRing(hash, config.vnodesPerWeight(), target);
            assertSameRing(reference, oracle, at + ": from scratch");

            List<Node> shuffled = new ArrayList<>(target);
            Collections.shuffle(shuffled, rnd);
            assertSameRing(HashRing.of(config, 0, shuffled), oracle, at + ": from scratch, shuffled " + shuffled);

            HashRing oneByOne = HashRing.empty(config);
            for (Node n : shuffled) {
                oneByOne = oneByOne.put(n);
            }
            assertThat(oneByOne.version()).as(at).isEqualTo(target.size());
            assertSameRing(oneByOne, oracle, at + ": put one by one in the order " + shuffled);

            List<String> log = new ArrayList<>();
            HashRing walked = randomWalkTo(HashRing.empty(config), target, rnd, log);
            assertSameRing(walked, oracle, at + ": through " + log);
            assertThat(walked.fingerprint()).as(at).isEqualTo(reference.fingerprint());
        }
    }

    /** Random puts, removes, reweights and batches, then converging on {@code target} in random steps. */
    private static HashRing randomWalkTo(HashRing ring, List<Node> target, Random rnd, List<String> log) {
        Set<String> ids = new java.util.LinkedHashSet<>();
        target.forEach(n -> ids.add(n.id()));
        for (int i = 0; i < 3; i++) {
            ids.add(RingTesting.randomId(rnd));
        }
        List<String> pool = new ArrayList<>(ids);
        int steps = 3 + rnd.nextInt(15);
        for (int s = 0; s < steps; s++) {
            String id = pool.get(rnd.nextInt(pool.size()));
            int op = rnd.nextInt(4);
            if (op == 0 && ring.contains(id)) {
                ring = ring.remove(id);
                log.add("remove " + id);
            } else if (op == 1 && ring.contains(id)) {
                Node old = ring.node(id).orElseThrow();
                Node n = new Node(id, RingTesting.randomWeight(rnd), old.zone());
                ring = ring.put(n);
                log.add("reweight " + n);
            } else if (op == 2) {
                List<Change> batch = new ArrayList<>();
                List<String> some = new ArrayList<>(pool);
                Collections.shuffle(some, rnd);
                for (String b : some.subList(0, 1 + rnd.nextInt(3))) {
                    batch.add(ring.contains(b) && rnd.nextBoolean()
                            ? Change.remove(b) : Change.put(RingTesting.randomNode(rnd, b)));
                }
                ring = ring.apply(batch);
                log.add("batch " + batch);
            } else {
                Node n = RingTesting.randomNode(rnd, id);
                ring = ring.put(n);
                log.add("put " + n);
            }
        }
        Map<String, Node> want = new HashMap<>();
        target.forEach(n -> want.put(n.id(), n));
        List<Change> fixes = new ArrayList<>();
        for (Node n : ring.nodes()) {
            if (!want.containsKey(n.id())) {
                fixes.add(Change.remove(n.id()));
            }
        }
        for (Node n : target) {
            if (!n.equals(ring.node(n.id()).orElse(null))) {
                fixes.add(Change.put(n));
            }
        }
        Collections.shuffle(fixes, rnd);
        int i = 0;
        while (i < fixes.size()) {
            int size = 1 + rnd.nextInt(3);
            List<Change> batch = fixes.subList(i, Math.min(fixes.size(), i + size));
            if (batch.size() == 1 && rnd.nextBoolean()) {
                Change c = batch.get(0);
                ring = c instanceof Change.Put p ? ring.put(p.node()) : ring.remove(c.id());
            } else {
                ring = ring.apply(batch);
            }
            log.add("fix " + batch);
            i += size;
        }
        return ring;
    }

    private static void assertSameRing(HashRing ring, LinearScanRing oracle, String at) {
        assertThat(ring.nodes()).as(at + ": members").containsExactlyElementsOf(oracle.nodes.values());
        assertThat(pointsOf(ring)).as(at + ": points").containsExactly(oracle.points);
        assertThat(ownersOf(ring)).as(at + ": owners").containsExactly(oracle.owners);
        assertThat(ring.fingerprint()).as(at + ": fingerprint").isEqualTo(fingerprintOf(oracle));
    }

    // ------------------------------------------------------------ shared checks

    /** The points, owners, ownership and lookups of {@code ring} against the oracle (invariants 4 and 6). */
    static void checkRing(HashRing ring, LinearScanRing oracle, Random rnd, String at) {
        if (oracle.isEmpty()) {
            assertThat(ring.isEmpty()).as(at + ": empty").isTrue();
            assertThat(ring.ownership().shares()).as(at + ": empty").isEmpty();
            assertThat(ring.fingerprint()).as(at + ": empty").isEqualTo(fingerprintOf(oracle));
            String key = RingTesting.randomKey(rnd);
            assertThatThrownBy(() -> ring.route(key)).as(at + ": empty").isInstanceOf(RingException.NoNodes.class);
            assertThatThrownBy(() -> ring.preference(key, 2, rnd.nextBoolean())).as(at + ": empty")
                    .isInstanceOf(RingException.NoNodes.class);
            return;
        }
        assertThat(pointsOf(ring)).as(at + ": points").containsExactly(oracle.points);
        assertThat(ownersOf(ring)).as(at + ": owners").containsExactly(oracle.owners);
        for (int i = 1; i < ring.pointCount(); i++) {
            assertThat(ring.pointAt(i)).as(at + ": points strictly ascending").isGreaterThan(ring.pointAt(i - 1));
        }
        long vnodes = 0;
        for (Node n : oracle.nodes.values()) {
            vnodes += Math.max(1, Math.round(ring.config().vnodesPerWeight() * n.weight()));
        }
        assertThat(ring.vnodeCount()).as(at + ": vnodes").isEqualTo(vnodes);

        // 6. ownership counts sum to 2^32, exactly as the arcs say
        Ownership own = ring.ownership();
        assertThat(own.version()).as(at).isEqualTo(ring.version());
        assertThat(own.shares()).extracting(s -> s.node().id()).as(at + ": ascending ids")
                .containsExactlyElementsOf(oracle.nodes.keySet());
        assertThat(countsOf(ring)).as(at + ": ownership counts").isEqualTo(oracle.counts());
        Map<String, Integer> owned = new LinkedHashMap<>();
        own.shares().forEach(s -> owned.put(s.node().id(), s.points()));
        assertThat(owned).as(at + ": ownership points").isEqualTo(oracle.pointsOwned());
        long total = 0;
        for (Ownership.Share s : own.shares()) {
            total += s.count();
            assertThat(s.share()).as(at).isEqualTo(s.count() / 4294967296.0);
        }
        assertThat(total).as(at + ": invariant 6, counts sum to 2^32").isEqualTo(1L << 32);
        assertThat(own.total()).as(at).isEqualTo(1L << 32);

        int owning = (int) oracle.counts().values().stream().filter(c -> c > 0).count();
        for (int i = 0; i < 30; i++) {
            String key = RingTesting.randomKey(rnd);
            long h = Integer.toUnsignedLong(oracle.hash.hash(key));
            String what = at + ": key " + key + " hash " + h;
            assertThat(ring.hash(key)).as(what).isEqualTo(h);
            checkLookups(ring, oracle, h, ring.route(key), n -> ring.preference(key, n),
                    n -> ring.preference(key, n, true), owning, rnd, what);
        }
        for (int i = 0; i < 30; i++) {
            long h = RingTesting.randomHash(rnd, oracle);
            checkLookups(ring, oracle, h, ring.routeHash(h), n -> ring.preferenceHash(h, n, false),
                    n -> ring.preferenceHash(h, n, true), owning, rnd, at + ": hash " + h);
        }
    }

    private static void checkLookups(HashRing ring, LinearScanRing oracle, long h, String route,
            java.util.function.IntFunction<List<String>> plain, java.util.function.IntFunction<List<String>> zoned,
            int owning, Random rnd, String what) {
        // 6. binary search agrees with a linear scan
        assertThat(route).as(what + ": route").isEqualTo(oracle.owner(h));
        int n = 1 + rnd.nextInt(owning + 2);
        List<String> p = plain.apply(n);
        List<String> z = zoned.apply(n);
        assertThat(p).as(what + ": preference n " + n).containsExactlyElementsOf(oracle.preference(h, n));
        assertThat(z).as(what + ": zone-aware preference n " + n)
                .containsExactlyElementsOf(oracle.zonedPreference(h, n));
        // 4. distinct nodes, element 0 is the route
        for (List<String> list : List.of(p, z)) {
            assertThat(list).as(what + ": invariant 4, n " + n).doesNotHaveDuplicates()
                    .hasSize(Math.min(n, owning));
            assertThat(list.get(0)).as(what + ": invariant 4, n " + n).isEqualTo(route);
        }
        assertThat(plain.apply(owning + 5)).as(what + ": every owning node").hasSize(owning);
    }

    /** The diff against the oracle's brute-force diff, its ranges probed at and around their ends. */
    static void checkDiff(RingDiff diff, LinearScanRing from, LinearScanRing to, Random rnd, String at) {
        LinearScanRing.Diff want = LinearScanRing.diff(from, to);
        assertThat(diff.movedCount()).as(at + ": moved count").isEqualTo(want.movedCount());
        assertThat(diff.movedShare()).as(at).isEqualTo(want.movedCount() / 4294967296.0);
        assertThat(diff.flows()).as(at + ": flows, by count descending, then from, then to")
                .containsExactlyElementsOf(want.flows());
        List<RingDiff.Range> ranges = diff.ranges();
        assertThat(ranges).as(at + ": ranges").containsExactlyElementsOf(want.ranges());
        assertThat(diff.rangeCount()).as(at).isEqualTo(ranges.size());
        assertThat(diff.ranges(1)).as(at).hasSize(Math.min(1, ranges.size()));

        // 6. range sizes add up to the moved count and to the sum of the flows
        long sizes = 0;
        for (RingDiff.Range r : ranges) {
            sizes += r.size();
        }
        long flows = 0;
        for (RingDiff.Flow f : diff.flows()) {
            flows += f.count();
            assertThat(f.from()).as(at + ": a flow moves").isNotEqualTo(f.to());
        }
        assertThat(sizes).as(at + ": invariant 6, range sizes = moved").isEqualTo(diff.movedCount());
        assertThat(flows).as(at + ": invariant 6, flows = moved").isEqualTo(diff.movedCount());

        for (int i = 0; i < ranges.size(); i++) {
            RingDiff.Range r = ranges.get(i);
            String what = at + ": range " + r;
            assertThat(r.start()).as(what + ": never wraps").isBetween(0L, r.end());
            assertThat(r.end()).as(what).isLessThanOrEqualTo(RingTesting.MAX_HASH);
            assertThat(r.from()).as(what).isNotEqualTo(r.to());
            if (i > 0) {
                assertThat(r.start()).as(what + ": sorted, disjoint").isGreaterThan(ranges.get(i - 1).end());
            }
            for (long h : new long[] {r.start(), r.end()}) {
                assertThat(from.owner(h)).as(what + ": old owner at " + h).isEqualTo(r.from());
                assertThat(to.owner(h)).as(what + ": new owner at " + h).isEqualTo(r.to());
            }
            // just outside: unmoved, or moved differently (else it would have been merged)
            for (long h : new long[] {r.start() - 1, r.end() + 1}) {
                if (h < 0 || h > RingTesting.MAX_HASH) {
                    continue;
                }
                String f = from.owner(h);
                String t = to.owner(h);
                assertThat(Objects.equals(f, t) || !Objects.equals(f, r.from()) || !Objects.equals(t, r.to()))
                        .as(what + ": at " + h + " " + f + "->" + t + " it would have merged").isTrue();
            }
        }
        // values outside every range keep their owner; values inside move as their range says
        for (int i = 0; i < 40; i++) {
            long h = RingTesting.randomHash(rnd, rnd.nextBoolean() ? from : to);
            RingDiff.Range in = null;
            for (RingDiff.Range r : ranges) {
                if (r.start() <= h && h <= r.end()) {
                    in = r;
                }
            }
            if (in == null) {
                assertThat(to.owner(h)).as(at + ": unmoved value " + h).isEqualTo(from.owner(h));
            } else {
                assertThat(from.owner(h) + "->" + to.owner(h)).as(at + ": moved value " + h)
                        .isEqualTo(in.from() + "->" + in.to());
            }
        }
    }

    static long[] pointsOf(HashRing ring) {
        long[] out = new long[ring.pointCount()];
        for (int i = 0; i < out.length; i++) {
            out[i] = ring.pointAt(i);
        }
        return out;
    }

    static String[] ownersOf(HashRing ring) {
        String[] out = new String[ring.pointCount()];
        for (int i = 0; i < out.length; i++) {
            out[i] = ring.ownerAt(i);
        }
        return out;
    }

    static Map<String, Long> countsOf(HashRing ring) {
        Map<String, Long> out = new LinkedHashMap<>();
        ring.ownership().shares().forEach(s -> out.put(s.node().id(), s.count()));
        return out;
    }

    /** The fingerprint of the oracle's ring, from the byte format, with the JDK's SHA-256. */
    static String fingerprintOf(LinearScanRing oracle) {
        return fingerprintOf(oracle.points, oracle.owners);
    }

    /** The fingerprint of these points (unsigned, ascending) and owners, from the byte format, with the JDK's SHA-256. */
    static String fingerprintOf(long[] points, String[] owners) {
        try {
            java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
            for (int i = 0; i < points.length; i++) {
                long p = points[i];
                sha.update(new byte[] {(byte) (p >> 24), (byte) (p >> 16), (byte) (p >> 8), (byte) p});
                sha.update(owners[i].getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                sha.update((byte) '\n');
            }
            return java.util.HexFormat.of().formatHex(sha.digest());
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
