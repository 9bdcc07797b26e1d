package io.ringd.bench;

import io.ringd.ring.Handoff;
import io.ringd.ring.HandoffIndex;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;

import java.time.Duration;
import java.time.Instant;
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
 * A handoff lookup against a plain route, in the same run (docs/ring.md
 * section 21): 10 versions in the window (joins, removals and reweights of
 * one node each), rings of 50 or 1,000 nodes of 128 points (md5) or a
 * Maglev table of 65,537 entries. {@code routeAndHandoff} is the service's
 * path: the key hashed once, routed, and its handoff looked up with that
 * hash; {@code handoff} hashes the key itself.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class HandoffBenchmark {

    @Param({"ring", "maglev"})
    public String placement;

    @Param({"50", "1000"})
    public int nodes;

    /** Versions in the window after the first. */
    static final int CHANGES = 10;

    private String[] keys;
    private HashRing ring;
    private HandoffIndex index;
    private Instant since;
    private int i;

    @Setup
    public void setUp() {
        keys = Fixtures.keys();
        RingConfig config = placement.equals("maglev") ? RingConfig.of("md5", 128, "maglev", 65_537)
                : RingConfig.defaults();
        HashRing r = HashRing.of(config, 0, Fixtures.nodes(nodes));
        Instant t = Instant.now().minusSeconds(60);
        List<HashRing> rings = new ArrayList<>(List.of(r));
        List<Instant> times = new ArrayList<>(List.of(t));
        for (int v = 1; v <= CHANGES; v++) {
            r = switch (v % 3) {
                case 1 -> r.put(Node.of("joined-" + v, 1));
                case 2 -> r.remove(String.format("node-%04d", v));
                default -> r.put(Node.of(String.format("node-%04d", nodes - v), 2));
            };
            rings.add(r);
            times.add(t.plusSeconds(v));
        }
        ring = r;
        index = HandoffIndex.of(rings, times);
        since = Instant.now().minus(Duration.ofMinutes(10));
        int moved = 0;
        for (String k : keys) {
            if (index.handoff(k, since) != null) {
                moved++;
            }
        }
        System.out.println(index + ": " + moved + " of " + keys.length + " keys moved, index ~"
                + index.memoryBytes() + " bytes");
    }

    @Benchmark
    public String route() {
        return ring.route(keys[i++ & Fixtures.KEY_MASK]);
    }

    @Benchmark
    public Object routeAndHandoff() {
        String key = keys[i++ & Fixtures.KEY_MASK];
        long hash = ring.hash(key);
        String node = ring.routeHash(hash);
        Handoff h = index.handoff(key, hash, since);
        return h == null ? node : h;
    }

    @Benchmark
    public Handoff handoff() {
        return index.handoff(keys[i++ & Fixtures.KEY_MASK], since);
    }
}
