package io.ringd.bench;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jol.info.GraphLayout;

import io.ringd.client.HandoffHistory;
import io.ringd.client.HandoffKeepPath;
import io.ringd.ring.HandoffIndex;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;

/**
 * What a {@code RingClient} keeps for handoff (docs/ring.md section 21) and
 * what keeping it costs its follower thread: md5 rings of {@code nodes} x
 * 128 points, followed through {@value #SWAPS} one-node changes (a join, a
 * removal, a reweight to 2, in turn), so that the client holds its default
 * 16 versions at the end. {@code keep} is the follower's work for handoff
 * at each swap ({@code HandoffVersions.keep}), averaged over the
 * {@value #SWAPS} + 1 swaps of a history followed from its first version,
 * and {@code keepIndexed} the same for a client that asked for handoff, so
 * that every swap indexes what it keeps; the set-up prints what {@code handoffHistory()} says the history takes,
 * the heap JOL finds reachable from it beyond the current ring, and the same
 * once the first handoff lookup has indexed it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-Djdk.attach.allowAttachSelf=true",
        "-Djol.magicFieldOffset=true"})
public class HandoffHistoryBenchmark {

    /** Changes followed after the first version. */
    static final int SWAPS = 16;
    static final int VERSIONS = 16;

    @Param({"100", "1000"})
    public int nodes;

    private List<HashRing> rings;
    private List<Instant> times;

    @Setup
    public void setUp() {
        HashRing r = HashRing.of(RingConfig.defaults(), 1_000, Fixtures.nodes(nodes));
        Instant t = Instant.now().minusSeconds(60);
        rings = new ArrayList<>(List.of(r));
        times = new ArrayList<>(List.of(t));
        for (int v = 1; v <= SWAPS; v++) {
            r = switch (v % 3) {
                case 1 -> r.put(Node.of("joined-" + v, 1));
                case 2 -> r.remove(String.format("node-%04d", v));
                default -> r.put(Node.of(String.format("node-%04d", nodes - v), 2));
            };
            rings.add(r);
            times.add(t.plusSeconds(v));
        }
        HashRing current = rings.get(rings.size() - 1);
        Object kept = HandoffKeepPath.keepAll(rings, times, VERSIONS, false);
        HandoffHistory before = HandoffKeepPath.history(kept);
        long ring = GraphLayout.parseInstance(current).totalSize();
        long held = GraphLayout.parseInstance(kept).totalSize() - ring;
        HandoffIndex index = HandoffKeepPath.index(kept);
        HandoffHistory after = HandoffKeepPath.history(kept);
        long heldIndexed = GraphLayout.parseInstance(kept).totalSize() - ring;
        System.out.printf("%n%d x 128 (%,d points, the ring %,d B by JOL): %d versions held; "
                + "handoffHistory %,d B, JOL %,d B beyond the ring; indexed (%s): handoffHistory %,d B, "
                + "JOL %,d B%n", nodes, current.pointCount(), ring, before.versions(), before.bytes(), held,
                index, after.bytes(), heldIndexed);
    }

    @Benchmark
    @OperationsPerInvocation(SWAPS + 1)
    public Object keep() {
        return HandoffKeepPath.keepAll(rings, times, VERSIONS, false);
    }

    /** The same for a client that asked for handoff: each swap also indexes what it keeps. */
    @Benchmark
    @OperationsPerInvocation(SWAPS + 1)
    public Object keepIndexed() {
        return HandoffKeepPath.keepAll(rings, times, VERSIONS, true);
    }
}
