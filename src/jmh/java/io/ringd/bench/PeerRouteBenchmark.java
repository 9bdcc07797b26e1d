package io.ringd.bench;

import io.ringd.ring.HashRing;
import io.ringd.ring.KeyHash;
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
 * One key to one node on 100 nodes x 160 points, the ring against its peers
 * in one run: the key hash alone, {@code HashRing.route}, the
 * {@code TreeMap} ring with the same points, Guava's jump hash after the
 * same key hash, and spymemcached's {@code KetamaNodeLocator.getPrimary}
 * against a ring of the same libketama placement ({@code hash=ketama}), which
 * answers every key as spymemcached does (checked in set-up).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class PeerRouteBenchmark {

    static final int POINTS = 160;

    @Param({"md5", "murmur3"})
    public String hash;

    private String[] keys;
    private KeyHash keyHash;
    private HashRing ring;
    private TreeMapRing treeMap;
    private Peers.Jump jump;
    private HashRing ketamaRing;
    private KetamaNodeLocator spymemcached;
    private int i;

    @Setup
    public void setUp() {
        keys = Fixtures.keys();
        List<Node> nodes = Fixtures.nodes(100);
        RingConfig config = RingConfig.of(hash, POINTS);
        keyHash = config.hash();
        ring = HashRing.of(config, 1, nodes);
        Peers.All peers = Peers.All.of(ring, keyHash, POINTS, nodes, keys);
        treeMap = peers.treeMap();
        jump = peers.jump();
        ketamaRing = peers.ketamaRing();
        spymemcached = peers.spymemcached();
    }

    @Benchmark
    public int hashOnly() {
        return keyHash.hash(keys[i++ & Fixtures.KEY_MASK]);
    }

    @Benchmark
    public String ringd_route() {
        return ring.route(keys[i++ & Fixtures.KEY_MASK]);
    }

    @Benchmark
    public String treeMap_route() {
        return treeMap.route(keys[i++ & Fixtures.KEY_MASK]);
    }

    @Benchmark
    public String guavaJump_route() {
        return jump.route(keys[i++ & Fixtures.KEY_MASK]);
    }

    /** Its own hash (ketama MD5) whatever the parameter: the same work under both. */
    @Benchmark
    public Object spymemcached_getPrimary() {
        return spymemcached.getPrimary(keys[i++ & Fixtures.KEY_MASK]);
    }

    /** ringd with libketama's placement and key hash: the same answers as spymemcached. */
    @Benchmark
    public String ringdKetama_route() {
        return ketamaRing.route(keys[i++ & Fixtures.KEY_MASK]);
    }
}
