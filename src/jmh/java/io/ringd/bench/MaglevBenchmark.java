package io.ringd.bench;

import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;
import io.ringd.ring.RingDiff;

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
 * A Maglev table of 100 nodes at M = 65,537 (docs/ring.md section 15):
 * built from scratch, changed by one node (the table is filled afresh; the
 * kept nodes' permutations are reused), and diffed exactly against the
 * previous table, against the 100 x 128-point ring it replaces (a settings
 * switch) and against a table of another size. The weighted build mixes
 * weights 1 to 8, so members skip rounds.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class MaglevBenchmark {

    static final int NODES = 100;
    static final int SIZE = 65_537;
    /** Sorts among the existing nodes, so member indices shift. */
    static final Node JOINING = Node.of("node-0050-new", 1.0);

    private RingConfig config;
    private List<Node> nodes;
    private List<Node> weighted;
    private HashRing table;
    private HashRing joined;
    private HashRing ring;
    private HashRing otherSize;

    @Setup(Level.Trial)
    public void setUp() {
        config = RingConfig.of("md5", Fixtures.VNODES, "maglev", SIZE);
        nodes = Fixtures.nodes(NODES);
        weighted = new java.util.ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            weighted.add(Node.of(String.format("node-%04d", i), 1 + i % 8));
        }
        table = HashRing.of(config, 1, nodes);
        joined = table.put(JOINING);
        ring = HashRing.of(RingConfig.defaults(), 1, nodes);
        otherSize = table.withConfig(RingConfig.of("md5", Fixtures.VNODES, "maglev", 65_521));
        if (!joined.fingerprint().equals(HashRing.of(config, 2, joined.nodes()).fingerprint())) {
            throw new IllegalStateException("put and of disagree");
        }
    }

    @Benchmark
    public HashRing build100() {
        return HashRing.of(config, 1, nodes);
    }

    @Benchmark
    public HashRing build100Weighted() {
        return HashRing.of(config, 1, weighted);
    }

    @Benchmark
    public HashRing put() {
        return table.put(JOINING);
    }

    @Benchmark
    public HashRing remove() {
        return table.remove("node-0050");
    }

    @Benchmark
    public RingDiff diff_oneNodeJoined() {
        return HashRing.diff(table, joined);
    }

    @Benchmark
    public RingDiff diff_ringToTable() {
        return HashRing.diff(ring, table);
    }

    @Benchmark
    public RingDiff diff_tableToRing() {
        return HashRing.diff(table, ring);
    }

    @Benchmark
    public RingDiff diff_tableToOtherSize() {
        return HashRing.diff(table, otherSize);
    }
}
