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
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Three distinct nodes for a key on 100 nodes x 128 points (md5):
 * {@code HashRing.preference} against a walk of the {@code TreeMap}'s tail
 * and head views.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class PreferenceBenchmark {

    private static final int N = 3;

    private String[] keys;
    private HashRing ring;
    private HashRing zonedRing;
    private TreeMapRing treeMap;
    private int i;

    @Setup
    public void setUp() {
        keys = Fixtures.keys();
        RingConfig config = RingConfig.defaults();
        ring = HashRing.of(config, 1, Fixtures.nodes(100));
        treeMap = TreeMapRing.build(config.hash(), Fixtures.VNODES, Fixtures.nodes(100));
        Fixtures.checkAgree(ring, treeMap, keys);
        List<Node> zoned = new ArrayList<>();
        for (Node n : Fixtures.nodes(100)) {
            zoned.add(new Node(n.id(), n.weight(), "zone-" + (zoned.size() % 3)));
        }
        zonedRing = HashRing.of(config, 1, zoned);
    }

    @Benchmark
    public List<String> hashRing_preference3() {
        return ring.preference(keys[i++ & Fixtures.KEY_MASK], N);
    }

    /** Zone-aware: the same ring with its nodes in 3 zones, one node of each zone first. */
    @Benchmark
    public List<String> hashRing_preference3DistinctZones() {
        return zonedRing.preference(keys[i++ & Fixtures.KEY_MASK], N, true);
    }

    @Benchmark
    public List<String> treeMap_preference3() {
        return treeMap.preference(keys[i++ & Fixtures.KEY_MASK], N);
    }
}
