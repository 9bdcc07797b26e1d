package io.ringd.bench;

import io.ringd.ring.HashRing;
import io.ringd.ring.KeyHash;
import io.ringd.ring.RingConfig;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One key to one node on 100 nodes x 128 points: {@code HashRing.route}
 * against a {@code TreeMap} ring with the same points, and the key hash
 * alone, under md5 and murmur3 (a cheap hash shows the search cost).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class LookupBenchmark {

    @Param({"md5", "murmur3"})
    public String hash;

    private String[] keys;
    private KeyHash keyHash;
    private HashRing ring;
    private TreeMapRing treeMap;
    private int i;

    @Setup
    public void setUp() {
        keys = Fixtures.keys();
        RingConfig config = RingConfig.of(hash, Fixtures.VNODES);
        keyHash = config.hash();
        ring = HashRing.of(config, 1, Fixtures.nodes(100));
        treeMap = TreeMapRing.build(keyHash, Fixtures.VNODES, Fixtures.nodes(100));
        Fixtures.checkAgree(ring, treeMap, keys);
    }

    @Benchmark
    public int hashOnly() {
        return keyHash.hash(keys[i++ & Fixtures.KEY_MASK]);
    }

    @Benchmark
    public String hashRing_route() {
        return ring.route(keys[i++ & Fixtures.KEY_MASK]);
    }

    @Benchmark
    public String treeMap_route() {
        return treeMap.route(keys[i++ & Fixtures.KEY_MASK]);
    }
}
