package io.ringd.bench;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.ringd.client.ClientApplyPath;
import io.ringd.ring.Change;
import io.ringd.ring.FingerprintPeers;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;
import io.ringd.wire.ChangeEventJson;
import io.ringd.wire.WireJson;
import io.ringd.wire.WireTime;

/**
 * A follower's work for one {@code change} event (docs/ring.md section 20)
 * on a ring of 1,000 nodes x 128 points (md5, the default ring): from the
 * event's data, the JSON string as the server writes it, to a verified new
 * {@link HashRing} ready to route. {@code follow} is the client's path
 * (read the data, apply the change incrementally, compare the fingerprint
 * of section 10); {@code followBefore} is the same with the fingerprint
 * computed as the library did before it wrote its bytes through one buffer
 * (three digest updates per point), kept here as the peer. Then the steps
 * one by one: {@code parse}, {@code apply} (no fingerprint), and the
 * fingerprint of the new ring computed three ways: the library's
 * ({@code fingerprint}), the old way ({@code fingerprintPerPoint}), and
 * from a SHA-256 midstate the old ring kept every {@value #EVERY} points
 * ({@code fingerprintResumed}); {@code fingerprintCheckpointed} is what
 * keeping those midstates costs the ring that keeps them. {@code change}:
 * one node joins ({@code add}, sorting in the middle of the members, so half
 * are renumbered) or leaves ({@code remove}, the middle member). {@code nodes}
 * is 1,000 unless {@code -p nodes=100} asks for the ring of
 * {@code bench/clients.sh} (100 x 128).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class ClientApplyBenchmark {

    /** Points between two midstates kept, for {@code fingerprintResumed}. */
    static final int EVERY = 1_024;
    static final long VERSION = 1_000;

    @Param({"add", "remove"})
    public String change;

    @Param({"1000"})
    public int nodes;

    private HashRing previous;
    private HashRing next;
    private String data;
    private ClientApplyPath.Parsed parsed;
    private FingerprintPeers.Checkpoints checkpoints;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        RingConfig config = RingConfig.defaults();
        previous = HashRing.of(config, VERSION, Fixtures.nodes(nodes));
        String middle = String.format("node-%04d", nodes / 2);
        Change c = switch (change) {
            case "add" -> Change.put(Node.of(middle + "-new", 1.0));
            case "remove" -> Change.remove(middle);
            default -> throw new IllegalArgumentException(change);
        };
        next = previous.apply(List.of(c), config, VERSION + 1);
        data = WireJson.lenient().writeValueAsString(ChangeEventJson.of(VERSION + 1, "5f0c3a9e1b7d2468",
                WireTime.format(Instant.now()), next.fingerprint(), List.of(c), null));
        parsed = ClientApplyPath.parse(data);
        checkpoints = FingerprintPeers.Checkpoints.of(previous, EVERY);
        String f = next.fingerprint();
        check("follow", ClientApplyPath.follow(data, previous).fingerprint(), f);
        check("followBefore", followBefore().fingerprint(), f);
        check("fingerprintPerPoint", FingerprintPeers.perPoint(next), f);
        check("fingerprint", FingerprintPeers.library(next), f);
        check("fingerprintResumed", FingerprintPeers.resumed(checkpoints, next), f);
        check("fingerprintCheckpointed", FingerprintPeers.Checkpoints.of(next, EVERY).fingerprint, f);
        int first = FingerprintPeers.firstDifference(previous, next);
        int entries = FingerprintPeers.entries(next);
        System.out.printf("%n%s: %d points, the first changed at index %d: a resumed hash hashes again "
                + "%.1f%% of them; event data %d bytes%n", change, entries, first,
                100.0 * (entries - (first / EVERY) * EVERY) / entries, data.length());
    }

    private static void check(String what, String got, String want) {
        if (!got.equals(want)) {
            throw new IllegalStateException(what + " gives " + got + ", not " + want);
        }
    }

    @Benchmark
    public HashRing follow() throws Exception {
        return ClientApplyPath.follow(data, previous);
    }

    @Benchmark
    public HashRing followBefore() throws Exception {
        ClientApplyPath.Parsed p = ClientApplyPath.parse(data);
        HashRing ring = previous.apply(p.changes(), p.config(previous), p.version());
        if (!FingerprintPeers.perPoint(ring).equals(p.fingerprint())) {
            throw new IllegalStateException("fingerprint mismatch");
        }
        return ring;
    }

    @Benchmark
    public ClientApplyPath.Parsed parse() throws Exception {
        return ClientApplyPath.parse(data);
    }

    @Benchmark
    public HashRing apply() {
        return previous.apply(parsed.changes(), parsed.config(previous), parsed.version());
    }

    @Benchmark
    public String fingerprint() {
        return FingerprintPeers.library(next);
    }

    @Benchmark
    public String fingerprintPerPoint() {
        return FingerprintPeers.perPoint(next);
    }

    @Benchmark
    public String fingerprintResumed() {
        return FingerprintPeers.resumed(checkpoints, next);
    }

    @Benchmark
    public FingerprintPeers.Checkpoints fingerprintCheckpointed() {
        return FingerprintPeers.Checkpoints.of(next, EVERY);
    }
}
