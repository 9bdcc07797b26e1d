package io.ringd.bench;

import io.ringd.ring.Change;
import io.ringd.ring.Node;
import io.ringd.state.ExpensiveReads;
import io.ringd.state.HandoffProperties;
import io.ringd.state.RingSettings;
import io.ringd.state.Rings;
import io.ringd.store.MemoryRingStores;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Lookups through the registry of named rings, as a request for
 * {@code /rings/{name}/route/{key}} makes them:
 * {@code rings.get(name).service().current().ring().route(key)}, on 100
 * rings of 50 nodes x 128 points (md5) served by one {@link Rings}. The same
 * 65,536 keys go to one ring ({@code oneRing}) or each to one of the 100
 * rings drawn at random ({@code spreadRings}: 100 rings' points in the
 * caches instead of one's); {@code heldRing} is the floor, the route on a
 * ring held in a field. Run by bench/rings.sh.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class RingsLookupBenchmark {

    static final int RINGS = 100;
    static final int NODES = 50;

    private Rings rings;
    private String[] keys;
    /** The ring name for each key: one of the 100 at random (spread), or the first (one). */
    private String[] spread;
    private String[] one;
    private io.ringd.ring.HashRing held;
    private int i;

    @Setup
    public void setUp() {
        rings = new Rings(new MemoryRingStores(), RingSettings.defaults(), 128, List.of(), List.of(),
                Clock.systemUTC(), ExpensiveReads.unlimited(), new HandoffProperties(Duration.ofMinutes(10)),
                RINGS + 1);
        String[] names = new String[RINGS];
        for (int r = 0; r < RINGS; r++) {
            names[r] = String.format("r-%03d", r);
            rings.create(names[r], null);
            List<Change> changes = new ArrayList<>(NODES);
            for (int n = 0; n < NODES; n++) {
                changes.add(Change.put(Node.of(String.format("%s-cache-%02d", names[r], n), 1.0)));
            }
            rings.get(names[r]).service().apply(changes, null);
        }
        keys = Fixtures.keys();
        spread = new String[Fixtures.KEY_COUNT];
        one = new String[Fixtures.KEY_COUNT];
        Random random = new Random(1);
        for (int k = 0; k < Fixtures.KEY_COUNT; k++) {
            // new strings, as a request's path gives: the name's hash is computed per lookup
            spread[k] = new String(names[random.nextInt(RINGS)].toCharArray());
            one[k] = new String(names[0].toCharArray());
        }
        held = rings.get(names[0]).service().current().ring();
        if (held.pointCount() != NODES * Fixtures.VNODES) {
            throw new IllegalStateException("points: " + held.pointCount());
        }
    }

    @TearDown
    public void tearDown() {
        rings.close();
    }

    @Benchmark
    public String heldRing() {
        return held.route(keys[i++ & Fixtures.KEY_MASK]);
    }

    @Benchmark
    public String oneRing() {
        int k = i++ & Fixtures.KEY_MASK;
        return rings.get(one[k]).service().current().ring().route(keys[k]);
    }

    @Benchmark
    public String spreadRings() {
        int k = i++ & Fixtures.KEY_MASK;
        return rings.get(spread[k]).service().current().ring().route(keys[k]);
    }
}
