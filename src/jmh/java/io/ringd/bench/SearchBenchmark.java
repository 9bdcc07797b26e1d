package io.ringd.bench;

import io.ringd.ring.HashRing;
import io.ringd.ring.KeyHash;
import io.ringd.ring.KeyHashes;
import io.ringd.ring.RingConfig;

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
 * The search alone, on hash values computed in set-up (md5 of the same
 * keys, 100 nodes x 128 points): {@code HashRing.routeHash} against
 * {@code TreeMap.ceilingEntry}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class SearchBenchmark {

    private long[] hashes;
    private HashRing ring;
    private TreeMapRing treeMap;
    private int i;

    @Setup
    public void setUp() {
        String[] keys = Fixtures.keys();
        KeyHash md5 = KeyHashes.md5();
        hashes = new long[keys.length];
        for (int k = 0; k < keys.length; k++) {
            hashes[k] = md5.hashUnsigned(keys[k]);
        }
        ring = HashRing.of(new RingConfig(md5, Fixtures.VNODES), 1, Fixtures.nodes(100));
        treeMap = TreeMapRing.build(md5, Fixtures.VNODES, Fixtures.nodes(100));
        Fixtures.checkAgree(ring, treeMap, keys);
    }

    @Benchmark
    public String hashRing_routeHash() {
        return ring.routeHash(hashes[i++ & Fixtures.KEY_MASK]);
    }

    @Benchmark
    public String treeMap_routeHash() {
        return treeMap.routeHash(hashes[i++ & Fixtures.KEY_MASK]);
    }
}
