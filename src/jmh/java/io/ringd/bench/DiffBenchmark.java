package io.ringd.bench;

import io.ringd.ring.HashRing;
import io.ringd.ring.KeyHash;
import io.ringd.ring.RingConfig;
import io.ringd.ring.RingDiff;

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
 * What moves when one node joins 1,000 nodes x 128 points (md5):
 * {@code HashRing.diff}, exact over the whole hash space, against what a
 * {@code TreeMap} ring can offer, routing a sample of 65,536 keys on both
 * rings (hashed once each) and counting the ones that moved.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class DiffBenchmark {

    private String[] keys;
    private KeyHash hash;
    private HashRing before;
    private HashRing after;
    private TreeMapRing treeBefore;
    private TreeMapRing treeAfter;

    @Setup(Level.Trial)
    public void setUp() {
        keys = Fixtures.keys();
        RingConfig config = RingConfig.defaults();
        hash = config.hash();
        before = HashRing.of(config, 1, Fixtures.nodes(MembershipBenchmark.NODES));
        after = before.put(MembershipBenchmark.JOINING);
        treeBefore = TreeMapRing.build(hash, Fixtures.VNODES, Fixtures.nodes(MembershipBenchmark.NODES));
        treeAfter = treeBefore.with(MembershipBenchmark.JOINING);
        Fixtures.checkAgree(after, treeAfter, keys);
    }

    @Benchmark
    public RingDiff hashRing_diff() {
        return HashRing.diff(before, after);
    }

    @Benchmark
    public int treeMap_sampledMovement() {
        int moved = 0;
        for (String key : keys) {
            long h = hash.hashUnsigned(key);
            if (!treeBefore.routeHash(h).equals(treeAfter.routeHash(h))) {
                moved++;
            }
        }
        return moved;
    }
}
