package io.ringd.follow;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ringd.state.NodeLatencies;
import io.ringd.state.RingListener;
import io.ringd.state.RingService;
import io.ringd.state.RingState;
import io.ringd.state.VersionException;

/**
 * The followers of one ring (docs/ring.md section 23): the reports this
 * instance was sent, merged with what the other instances of a shared store
 * post of theirs, and the states, counts and latencies read from them.
 *
 * <p>Reports and reads take no lock of the ring's: a report replaces one
 * entry of a concurrent map, sorted by id; states are worked out when read,
 * against the ring's current version, so a commit turns {@code current}
 * followers {@code behind} without touching any entry.
 *
 * <p>What the followers add up to (a {@link FollowerCounts.Census}: the counts of each
 * state and the versions of the live ones) is counted once and kept until
 * something could change it: a new follower, a follower at another version
 * or fingerprint, one coming back from silence, one forgotten, a commit, a
 * post of another instance, or the moment the first live follower falls
 * silent. A follower reporting the version it reported before changes
 * nothing, so a fleet at rest, however large, is not recounted: questions
 * about convergence and the counts cost the same with 10 followers as with
 * 10,000, and a listing reads only the followers it shows.
 */
final class FollowerRegistry implements RingListener, NodeLatencies {

    private static final Logger log = LoggerFactory.getLogger(FollowerRegistry.class);

    /** An entry read at one instant: its state and how many versions it lags the ring. */
    record Row(FollowerEntry entry, FollowerState state, long lagVersions) {
    }

    /** The outcome of a report. */
    enum Outcome {
        /** Taken. */
        TAKEN,
        /** A new follower, but the ring knows as many as it may and none is silent. */
        FULL
    }

    private final String ringName;
    private final RingService service;
    private final FollowersProperties props;
    private final LongSupplier clock;
    private final long ttlMillis;
    private final long forgetMillis;

    /** The reports made to this instance, by ascending id. */
    private final ConcurrentSkipListMap<String, FollowerEntry> local = new ConcurrentSkipListMap<>();
    /** Moves on every change that may change the counts; a census made at another stamp is counted again. */
    private final java.util.concurrent.atomic.AtomicLong stamp = new java.util.concurrent.atomic.AtomicLong();
    private volatile FollowerCounts.Census census;
    /** How many entries {@code local} holds (its own size() walks it). */
    private final java.util.concurrent.atomic.AtomicInteger localSize = new java.util.concurrent.atomic.AtomicInteger();
    /** What the other instances posted: instance to its followers (id to entry). */
    private volatile Map<String, Map<String, FollowerEntry>> remote = Map.of();
    /** What the other instances posted of their followers' latencies: instance to node to sketch. */
    private volatile Map<String, Map<String, double[]>> remoteLatencies = Map.of();
    /** Checks reported fingerprints against the kept versions'. */
    private final VersionFingerprints fingerprints;
    /** Each follower's state against the ring. */
    private final FollowerStates states;
    /** Followers whose divergence was logged: each is logged once while it stays diverged. */
    private final Set<String> loggedDiverged = ConcurrentHashMap.newKeySet();
    /** The earliest time a local entry may be silent: before it, a full ring has none to let go. */
    private volatile long noSilentBefore;
    private volatile Map<String, Double> medians = Map.of();
    /** Counts the changes of this instance's own followers, for its posts on the board. */
    private final java.util.concurrent.atomic.AtomicLong localChanges = new java.util.concurrent.atomic.AtomicLong();
    private final ReportBudget budget;
    private final ApplyTimes applyTimes;

    /** Records the time from a version's commit to a follower's first report of it. */
    interface ApplyTimes {
        ApplyTimes NONE = seconds -> {
        };

        void applied(double seconds);
    }

    FollowerRegistry(String ringName, RingService service, FollowersProperties props, LongSupplier clock,
            ApplyTimes applyTimes) {
        this.ringName = Objects.requireNonNull(ringName, "ringName");
        this.service = Objects.requireNonNull(service, "service");
        this.fingerprints = new VersionFingerprints(service);
        this.props = Objects.requireNonNull(props, "props");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ttlMillis = props.ttl().toMillis();
        this.states = new FollowerStates(ttlMillis, fingerprints);
        this.forgetMillis = props.forgetAfter().toMillis();
        this.budget = new ReportBudget(props.reportRate(), Math.max(props.reportRate(), props.max()), clock);
        this.applyTimes = applyTimes == null ? ApplyTimes.NONE : applyTimes;
    }

    long now() {
        return clock.getAsLong();
    }

    // ------------------------------------------------------------------ the ring

    @Override
    public void ringSwapped(RingState previous, RingState current, Op op) {
        fingerprints.swapped(current);
        stamp.incrementAndGet();
    }

    /** The current state, or {@code null} before the ring has loaded. */
    private RingState ring() {
        return service.isLoaded() ? service.current() : null;
    }

    // ------------------------------------------------------------------ reports

    /**
     * A report of {@code id}: it applied {@code version}, whose fingerprint it found to be {@code fingerprint}.
     * Checked already: the id, a version {@code >= 0}, a fingerprint of 64 lowercase hex digits, latencies
     * finite and {@code >= 0}.
     *
     * @return {@link Outcome#FULL} when {@code id} is new and the ring knows as many followers as it may
     * @throws ReportBudget.Exhausted when the ring takes no more reports this second
     */
    Outcome report(String id, long version, String fingerprint, Map<String, Double> latencies) {
        budget.take();
        long now = clock.getAsLong();
        FollowerEntry before = local.get(id);
        if (before == null && !room(id, now)) {
            return Outcome.FULL;
        }
        RingState cur = ring();
        Boolean match = cur == null ? null : fingerprints.check(version, fingerprint, cur);
        boolean same = before != null && before.version() == version
                && (before.fingerprint() != null ? before.fingerprint().equals(fingerprint)
                        : Objects.equals(before.match(), match));
        long firstAt;
        Double applied;
        if (same) {
            firstAt = before.firstAt();
            applied = before.appliedSeconds();
        } else {
            FollowerEntry elsewhere = before == null ? newestRemote(id) : null;
            if (elsewhere != null && elsewhere.version() == version) { // moved here from another instance
                firstAt = elsewhere.firstAt();
                applied = elsewhere.appliedSeconds();
            } else {
                firstAt = now;
                applied = appliedSeconds(version, now, cur);
                if (applied != null) {
                    applyTimes.applied(applied);
                }
            }
        }
        // The id the map holds already, so that a follower's id is held once however often it reports.
        String key = before == null ? id : before.id();
        FollowerEntry e = new FollowerEntry(key, version, match == null ? fingerprint : null, match, now, firstAt, applied,
                members(latencies, cur));
        if (local.put(key, e) == null) {
            localSize.incrementAndGet();
        }
        if (!same || now - before.reportedAt() >= ttlMillis || newestRemote(key) != null) {
            stamp.incrementAndGet(); // after the put: a census counted before it is counted again
        }
        if (!same) {
            localChanges.incrementAndGet();
            if (Boolean.FALSE.equals(match)) {
                diverged(e, cur);
            } else {
                loggedDiverged.remove(id);
            }
        }
        return Outcome.TAKEN;
    }

    /** The latencies of the members of the ring among {@code latencies}: the others take no memory. */
    private static Map<String, Double> members(Map<String, Double> latencies, RingState cur) {
        if (latencies == null || latencies.isEmpty() || cur == null) {
            return Map.of();
        }
        Map<String, Double> kept = new HashMap<>();
        latencies.forEach((node, ms) -> {
            if (cur.ring().contains(node)) {
                kept.put(node, ms);
            }
        });
        return Map.copyOf(kept);
    }

    private Double appliedSeconds(long version, long now, RingState cur) {
        if (cur == null || version > cur.version() || version < service.oldestVersion()) {
            return null;
        }
        try {
            Instant committed = version == cur.version() ? cur.committedAt() : service.history().committedAt(version);
            return committed == null ? null : Math.max(0, now - committed.toEpochMilli()) / 1000.0;
        } catch (VersionException e) {
            return null;
        }
    }

    /** Whether one more follower fits: forgets the oldest silent ones first when the ring is full. */
    private boolean room(String id, long now) {
        if (count() < props.max()) {
            return true;
        }
        if (now < noSilentBefore) {
            return false;
        }
        List<FollowerEntry> silent = new ArrayList<>();
        long earliest = Long.MAX_VALUE;
        for (FollowerEntry e : local.values()) {
            if (now - e.reportedAt() >= ttlMillis) {
                silent.add(e);
            } else {
                earliest = Math.min(earliest, e.reportedAt() + ttlMillis);
            }
        }
        if (silent.isEmpty()) {
            noSilentBefore = earliest;
            return false;
        }
        silent.sort((a, b) -> Long.compare(a.reportedAt(), b.reportedAt()));
        int drop = Math.min(silent.size(), Math.max(1, silent.size() / 2));
        for (int i = 0; i < drop; i++) {
            forget(silent.get(i).id());
        }
        return count() < props.max();
    }

    private void forget(String id) {
        localChanges.incrementAndGet();
        if (local.remove(id) != null) {
            localSize.decrementAndGet();
        }
        loggedDiverged.remove(id);
        stamp.incrementAndGet();
    }

    /** The followers known, this instance's and the others' (an id known to both counted once per instance). */
    int count() {
        int n = localSize.get();
        for (Map<String, FollowerEntry> m : remote.values()) {
            n += m.size();
        }
        return n;
    }

    private FollowerEntry newestRemote(String id) {
        FollowerEntry best = null;
        for (Map<String, FollowerEntry> m : remote.values()) {
            FollowerEntry e = m.get(id);
            if (e != null && (best == null || e.reportedAt() > best.reportedAt())) {
                best = e;
            }
        }
        return best;
    }

    private void diverged(FollowerEntry e, RingState cur) {
        if (loggedDiverged.add(e.id())) {
            log.warn("Follower {} of ring {} diverged: it reports version {} with a fingerprint that is not that "
                    + "version's (the ring is at version {}); it routes by another ring than this one",
                    e.id(), ringName, e.version(), cur == null ? "?" : cur.version());
        }
    }

    // ------------------------------------------------------------------ reads

    /** Every follower known (this instance's and the others'), by ascending id, read at {@code now}. */
    List<Row> rows(long now) {
        return rows(now, null, Integer.MAX_VALUE);
    }

    /**
     * The first {@code max} followers by ascending id that are in state {@code only} (any state when
     * {@code null}), read at {@code now}: only those shown are read when no other instance posted.
     */
    List<Row> rows(long now, FollowerState only, int max) {
        RingState cur = ring();
        Map<String, FollowerEntry> sorted = remote.isEmpty() ? local : new TreeMap<>(newest());
        List<Row> out = new ArrayList<>(Math.min(max, 1024));
        for (FollowerEntry e : sorted.values()) {
            if (out.size() >= max) {
                break;
            }
            Row r = row(e, cur, now);
            if (only == null || r.state() == only) {
                out.add(r);
            }
        }
        return out;
    }

    /** The newest entry of each id, in no order: this instance's own when no other posted. */
    private Map<String, FollowerEntry> newest() {
        Map<String, Map<String, FollowerEntry>> others = remote;
        if (others.isEmpty()) {
            return local;
        }
        Map<String, FollowerEntry> all = new HashMap<>(local);
        for (Map<String, FollowerEntry> m : others.values()) {
            for (FollowerEntry e : m.values()) {
                FollowerEntry have = all.get(e.id());
                if (have == null || e.reportedAt() > have.reportedAt()) {
                    all.put(e.id(), e);
                }
            }
        }
        return all;
    }

    Row row(FollowerEntry e, RingState cur, long now) {
        long ringVersion = cur == null ? 0 : cur.version();
        return new Row(e, states.of(e, cur, now), Math.max(0, ringVersion - e.version()));
    }

    /** The counts of each state in {@code rows}, with the ring's version. */
    FollowerCounts.Summary summary(List<Row> rows) {
        RingState cur = ring();
        return FollowerCounts.summary(cur == null ? 0 : cur.version(), rows);
    }

    /** The tally of {@code rows}, against the ring's version. */
    FollowerCounts.Tally tally(List<Row> rows) {
        RingState cur = ring();
        return FollowerCounts.tally(cur == null ? -1 : cur.version(), rows);
    }

    /** The tally of every follower at {@code now}: {@code tally(rows(now))}, from the census. */
    FollowerCounts.Tally tally(long now) {
        return census(now).tally();
    }

    /**
     * What the followers add up to at {@code now}: the census kept, when nothing changed since it was
     * counted and no live follower has fallen silent; else counted again (and the diverged followers of
     * this instance not logged yet are logged).
     */
    FollowerCounts.Census census(long now) {
        FollowerCounts.Census c = census;
        long s = stamp.get();
        if (c != null && c.stamp() == s && now >= c.at() && now < c.validUntil()) {
            return c;
        }
        c = count(now, s);
        census = c; // a count racing this one stored its own: their stamps tell which is kept next time
        return c;
    }

    private FollowerCounts.Census count(long now, long atStamp) {
        RingState cur = ring();
        Set<String> divergedNow = new HashSet<>();
        FollowerCounts.Census c = FollowerCounts.census(newest().values(), local.values(), e -> states.of(e, cur, now),
                e -> {
                    divergedNow.add(e.id());
                    if (local.get(e.id()) == e) {
                        diverged(e, cur);
                    }
                }, cur == null ? -1 : cur.version(), now, atStamp, ttlMillis, forgetMillis);
        if (divergedNow.isEmpty()) {
            loggedDiverged.clear();
        } else {
            loggedDiverged.retainAll(divergedNow);
        }
        return c;
    }

    // ------------------------------------------------------------------ the periodic pass

    /**
     * Forgets the followers silent for ten times the TTL, and works out the latency medians when
     * any follower reported latencies; the census at {@code now}, counted again if a follower was forgotten.
     */
    FollowerCounts.Census sweep(long now) {
        FollowerCounts.Census c = census(now);
        if (now >= c.forgetAt()) {
            for (FollowerEntry e : local.values()) {
                if (now - e.reportedAt() >= forgetMillis && local.remove(e.id(), e)) {
                    localSize.decrementAndGet();
                    localChanges.incrementAndGet();
                    stamp.incrementAndGet();
                }
            }
            c = census(now);
        }
        medians = c.latencies() || !remoteLatencies.isEmpty()
                ? LatencySketch.medians(localLatencies(now), remoteLatencies.values())
                : Map.of();
        return c;
    }

    @Override
    public Map<String, Double> medians() {
        return medians;
    }

    /** This instance's live followers' latest latencies, as a sketch per node, for its post on the board. */
    Map<String, double[]> localLatencies(long now) {
        return LatencySketch.ofLatest(local.values(), now, ttlMillis);
    }

    // ------------------------------------------------------------------ sharing

    /** A count that moves whenever this instance's own followers change (a new one, a new version, one gone). */
    long localChanges() {
        return localChanges.get();
    }

    /** This instance's followers, for its post on the board. */
    List<FollowerEntry> localEntries() {
        return new ArrayList<>(local.values());
    }

    /** What the other instances posted now: instance to followers and to latency sketches. */
    void remote(Map<String, Map<String, FollowerEntry>> followers, Map<String, Map<String, double[]>> latencies) {
        this.remote = Map.copyOf(followers);
        this.remoteLatencies = Map.copyOf(latencies);
        stamp.incrementAndGet();
    }

    /** For tests: the entry this instance holds for {@code id}. */
    FollowerEntry localEntry(String id) {
        return local.get(id);
    }

    @Override
    public String toString() {
        return "followers of ring " + ringName + " (" + localSize.get() + " here, "
                + Arrays.toString(remote.keySet().toArray()) + ")";
    }
}
