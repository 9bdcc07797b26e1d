package io.ringd.bench;

import io.ringd.ring.HashRing;
import io.ringd.ring.KeyHash;
import io.ringd.ring.KeyHashes;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;

import java.util.List;
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

import net.spy.memcached.KetamaNodeLocator;

/**
 * Lookup cost against ring size, 10 to 10,000 nodes x 160 points: the
 * search alone on murmur3 hashes computed in set-up ({@code routeHash},
 * {@code TreeMap.ceilingEntry}, Guava's jump hash), and whole lookups
 * (murmur3 for the ring, the {@code TreeMap} and jump; spymemcached with its
 * ketama MD5, against the ring of the same placement). bench/plots.sh draws
 * it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
public class RingSizeBenchmark {

    @Param({"10", "100", "1000", "10000"})
    public int nodes;

    private String[] keys;
    private long[] hashes;
    private HashRing ring;
    private TreeMapRing treeMap;
    private Peers.Jump jump;
    private HashRing ketamaRing;
    private KetamaNodeLocator spymemcached;
    private int i;

    @Setup
    public void setUp() {
        keys = Fixtures.keys();
        List<Node> members = Fixtures.nodes(nodes);
        KeyHash murmur3 = KeyHashes.murmur3();
        hashes = new long[keys.length];
        for (int k = 0; k < keys.length; k++) {
            hashes[k] = murmur3.hashUnsigned(keys[k]);
        }
        ring = HashRing.of(new RingConfig(murmur3, PeerRouteBenchmark.POINTS), 1, members);
        Peers.All peers = Peers.All.of(ring, murmur3, PeerRouteBenchmark.POINTS, members, keys);
        treeMap = peers.treeMap();
        jump = peers.jump();
        ketamaRing = peers.ketamaRing();
        spymemcached = peers.spymemcached();
    }

    @Benchmark
    public String search_ringd() {
        return ring.routeHash(hashes[i++ & Fixtures.KEY_MASK]);
    }

    @Benchmark
    public String search_treeMap() {
        return treeMap.routeHash(hashes[i++ & Fixtures.KEY_MASK]);
    }

    @Benchmark
    public String search_guavaJump() {
        return jump.routeHash(hashes[i++ & Fixtures.KEY_MASK]);
    }

    @Benchmark
    public String route_ringd() {
        return ring.route(keys[i++ & Fixtures.KEY_MASK]);
    }

    @Benchmark
    public String route_treeMap() {
        return treeMap.route(keys[i++ & Fixtures.KEY_MASK]);
    }

    @Benchmark
    public String route_guavaJump() {
        return jump.route(keys[i++ & Fixtures.KEY_MASK]);
    }

    @Benchmark
    public String route_ringdKetama() {
        return ketamaRing.route(keys[i++ & Fixtures.KEY_MASK]);
    }

    @Benchmark
    public Object route_spymemcached() {
        return spymemcached.getPrimary(keys[i++ & Fixtures.KEY_MASK]);
    }
}
