package io.ringd.bench;

import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One node joins a ring of 1,000 nodes x 128 points (md5). Each operation
 * starts from the same trial-level ring and returns the new one:
 * {@code HashRing.put} (incremental: hashes 128 points, merges), the same
 * membership built by {@code HashRing.of} (hashes all 128,128 points), and
 * the {@code TreeMap} peer rebuilt from scratch or copied and extended.
 * {@code HashRing.remove} of one member (no hashing at all) is the floor of
 * an incremental change.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class MembershipBenchmark {

    /** Sorts between node-0500 and node-0501, so the change renumbers half the members. */
    static final Node JOINING = Node.of("node-0500-new", 1.0);
    static final int NODES = 1_000;

    private RingConfig config;
    private HashRing ring;
    private TreeMapRing treeMap;
    private List<Node> after;

    @Setup(Level.Trial)
    public void setUp() {
        config = RingConfig.defaults();
        List<Node> before = Fixtures.nodes(NODES);
        ring = HashRing.of(config, 1, before);
        treeMap = TreeMapRing.build(config.hash(), Fixtures.VNODES, before);
        after = new ArrayList<>(before);
        after.add(JOINING);
        Fixtures.checkAgree(ring, treeMap, Fixtures.keys());
        if (!ring.put(JOINING).fingerprint().equals(HashRing.of(config, 2, after).fingerprint())) {
            throw new IllegalStateException("put and of disagree");
        }
        Fixtures.checkAgree(ring.put(JOINING), treeMap.with(JOINING), Fixtures.keys());
    }

    @Benchmark
    public HashRing hashRing_put() {
        return ring.put(JOINING);
    }

    @Benchmark
    public HashRing hashRing_remove() {
        return ring.remove("node-0500");
    }

    @Benchmark
    public HashRing hashRing_ofFromScratch() {
        return HashRing.of(config, 2, after);
    }

    @Benchmark
    public TreeMapRing treeMap_rebuild() {
        return TreeMapRing.build(config.hash(), Fixtures.VNODES, after);
    }

    @Benchmark
    public TreeMapRing treeMap_copyAndAdd() {
        return treeMap.with(JOINING);
    }
}
