package io.ringd.bench;

import io.ringd.ring.HashRing;
import io.ringd.ring.JumpHash;
import io.ringd.ring.KeyHash;
import io.ringd.ring.KeyHashes;
import io.ringd.ring.Node;
import io.ringd.ring.Placement;
import io.ringd.ring.RendezvousHash;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One key hash to one node, 100 nodes, for every {@link Placement}: the
 * ring (128 points per node), libketama's ring (160), a Maglev table
 * (M = 65,537), weighted rendezvous (a score per node) and jump hash. The
 * hashes are computed in set-up (murmur3), so this is the placement's cost
 * alone.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class PlacementBenchmark {

    @Param({"ring", "ketama", "maglev", "rendezvous", "jump"})
    public String placement;

    private long[] hashes;
    private Placement p;
    private int i;

    @Setup
    public void setUp() {
        KeyHash murmur3 = KeyHashes.murmur3();
        List<Node> nodes = Fixtures.nodes(100);
        List<String> ids = new ArrayList<>();
        nodes.forEach(n -> ids.add(n.id()));
        p = switch (placement) {
            case "ring" -> HashRing.of(new RingConfig(murmur3, Fixtures.VNODES), 1, nodes);
            case "ketama" -> HashRing.of(RingConfig.ketama(), 1, nodes);
            case "maglev" -> HashRing.of(RingConfig.maglev(murmur3, 65_537), 1, nodes);
            case "rendezvous" -> RendezvousHash.of(murmur3, nodes);
            case "jump" -> JumpHash.of(murmur3, ids);
            default -> throw new IllegalArgumentException(placement);
        };
        String[] keys = Fixtures.keys();
        hashes = new long[keys.length];
        for (int k = 0; k < keys.length; k++) {
            hashes[k] = p.hash(keys[k]);
        }
    }

    @Benchmark
    public String routeHash() {
        return p.routeHash(hashes[i++ & Fixtures.KEY_MASK]);
    }
}
