package io.ringd.bench;

import io.ringd.ring.KeyHashes;
import io.ringd.ring.Placement;

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
 * One key hash to one node against the number of nodes, for the ring
 * (128 points per node), a Maglev table, weighted rendezvous (HRW) and jump
 * hash: how each placement's lookup grows with N. The murmur3 hashes of the
 * keys are computed in set-up, so this is the placement's cost alone.
 * {@code bench/algorithms.sh} runs it for docs/algorithms.md with shorter
 * iterations than the annotations say.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class AlgorithmLookupBenchmark {

    /** {@code ring}, {@code maglev}, {@code rendezvous} or {@code jump} ({@link Placements#build}). */
    @Param({"ring", "maglev", "rendezvous", "jump"})
    public String placement;

    @Param({"2", "5", "10", "100", "1000", "10000"})
    public int nodes;

    private long[] hashes;
    private Placement p;
    private int i;

    @Setup
    public void setUp() {
        p = Placements.build(placement, KeyHashes.murmur3(), Fixtures.nodes(nodes));
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
