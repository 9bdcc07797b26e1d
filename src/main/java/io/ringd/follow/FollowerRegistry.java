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
 * entry of a concurrent map; states are worked out when read, against the
 * ring's current version, so a commit turns {@code current} followers
 * {@code behind} without touching any entry.
 */
final class FollowerRegistry implements RingListener, NodeLatencies {

    private static final Logger log = LoggerFactory.getLogger(FollowerRegistry.class);

    /** The states of docs/ring.md section 23, in the order their counts are shown. */
    enum State {
        CURRENT, BEHIND, DIVERGED, SILENT;

        String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        static State parse(String s) {
            for (State st : values()) {
                if (st.wire().equals(s)) {
                    return st;
                }
            }
            return null;
        }
    }

    /**
     * One follower's latest report.
     *
     * @param id             the follower's id
     * @param version        the version it reported
     * @param fingerprint    the fingerprint it reported, kept only while it could not be checked (a version
     *                       newer than this instance's); {@code null} once {@code match} is known
     * @param match          whether the fingerprint is its version's ({@code true} also for a version no longer
     *                       kept, which cannot be checked); {@code null} while not known
     * @param reportedAt     when it reported last, epoch milliseconds
     * @param firstAt        when it first reported this version, epoch milliseconds
     * @param appliedSeconds from the version's commit to {@code firstAt}; {@code null} when the commit time is
     *                       not known
     * @param latencies      its recent p99 latency to each node, in milliseconds; empty when it reported none
     */
    record Entry(String id, long version, String fingerprint, Boolean match, long reportedAt, long firstAt,
            Double appliedSeconds, Map<String, Double> latencies) {
    }

    /** An entry read at one instant: its state and how many versions it lags the ring. */
    record Row(Entry entry, State state, long lagVersions) {
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

    /** The reports made to this instance. */
    private final ConcurrentHashMap<String, Entry> local = new ConcurrentHashMap<>();
    /** What the other instances posted: instance to its followers (id to entry). */
    private volatile Map<String, Map<String, Entry>> remote = Map.of();
    /** What the other instances posted of their followers' latencies: instance to node to sketch. */
    private volatile Map<String, Map<String, double[]>> remoteLatencies = Map.of();
    /** Checks reported fingerprints against the kept versions'. */
    private final VersionFingerprints fingerprints;
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
        Entry before = local.get(id);
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
            Entry elsewhere = before == null ? newestRemote(id) : null;
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
        Entry e = new Entry(id, version, match == null ? fingerprint : null, match, now, firstAt, applied,
                members(latencies, cur));
        local.put(id, e);
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
        List<Entry> silent = new ArrayList<>();
        long earliest = Long.MAX_VALUE;
        for (Entry e : local.values()) {
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
        local.remove(id);
        loggedDiverged.remove(id);
    }

    /** The followers known, this instance's and the others' (an id known to both counted once per instance). */
    int count() {
        int n = local.size();
        for (Map<String, Entry> m : remote.values()) {
            n += m.size();
        }
        return n;
    }

    private Entry newestRemote(String id) {
        Entry best = null;
        for (Map<String, Entry> m : remote.values()) {
            Entry e = m.get(id);
            if (e != null && (best == null || e.reportedAt() > best.reportedAt())) {
                best = e;
            }
        }
        return best;
    }

    private void diverged(Entry e, RingState cur) {
        if (loggedDiverged.add(e.id())) {
            log.warn("Follower {} of ring {} diverged: it reports version {} with a fingerprint that is not that "
                    + "version's (the ring is at version {}); it routes by another ring than this one",
                    e.id(), ringName, e.version(), cur == null ? "?" : cur.version());
        }
    }

    // ------------------------------------------------------------------ reads

    /** Every follower known (this instance's and the others'), by ascending id, read at {@code now}. */
    List<Row> rows(long now) {
        RingState cur = ring();
        TreeMap<String, Entry> all = merged();
        List<Row> out = new ArrayList<>(all.size());
        for (Entry e : all.values()) {
            out.add(row(e, cur, now));
        }
        return out;
    }

    /** The newest entry of each id, over this instance's reports and the others' posts. */
    private TreeMap<String, Entry> merged() {
        return new TreeMap<>(newest());
    }

    /** The newest entry of each id, in no order: this instance's own when no other posted. */
    private Map<String, Entry> newest() {
        Map<String, Map<String, Entry>> others = remote;
        if (others.isEmpty()) {
            return local;
        }
        Map<String, Entry> all = new HashMap<>(local);
        for (Map<String, Entry> m : others.values()) {
            for (Entry e : m.values()) {
                Entry have = all.get(e.id());
                if (have == null || e.reportedAt() > have.reportedAt()) {
                    all.put(e.id(), e);
                }
            }
        }
        return all;
    }

    Row row(Entry e, RingState cur, long now) {
        long ringVersion = cur == null ? 0 : cur.version();
        long lag = Math.max(0, ringVersion - e.version());
        if (now - e.reportedAt() >= ttlMillis) {
            return new Row(e, State.SILENT, lag);
        }
        if (cur == null) {
            return new Row(e, State.BEHIND, lag);
        }
        Boolean match = e.match();
        if (match == null) {
            match = e.fingerprint() == null ? Boolean.TRUE : fingerprints.check(e.version(), e.fingerprint(), cur);
            if (match == null) { // newer than this ring: never made, as far as this instance knows
                return new Row(e, State.DIVERGED, 0);
            }
        }
        if (!match) {
            return new Row(e, State.DIVERGED, lag);
        }
        return new Row(e, e.version() >= ringVersion ? State.CURRENT : State.BEHIND, lag);
    }

    /** The counts of each state in {@code rows}, with the ring's version. */
    FollowerCounts.Summary summary(List<Row> rows) {
        RingState cur = ring();
        return FollowerCounts.summary(cur == null ? 0 : cur.version(), rows);
    }

    /**
     * The tally of every follower at {@code now}: what {@code tally(rows(now))} answers, without
     * sorting, for the convergence questions asked after every report.
     */
    FollowerCounts.Tally tally(long now) {
        return tally(rowsInAnyOrder(now));
    }

    /** Every follower known, read at {@code now}, in no order: {@link #rows} without sorting them. */
    List<Row> rowsInAnyOrder(long now) {
        RingState cur = ring();
        Map<String, Entry> all = newest();
        List<Row> rows = new ArrayList<>(all.size());
        for (Entry e : all.values()) {
            rows.add(row(e, cur, now));
        }
        return rows;
    }

    /** The tally of {@code rows}, against the ring's version. */
    FollowerCounts.Tally tally(List<Row> rows) {
        RingState cur = ring();
        return FollowerCounts.tally(cur == null ? -1 : cur.version(), rows);
    }

    // ------------------------------------------------------------------ the periodic pass

    /**
     * Forgets the followers silent for ten times the TTL, logs the diverged ones not logged
     * yet, and works out the latency medians; {@code rows} read at {@code now}.
     */
    void sweep(long now, List<Row> rows) {
        Set<String> divergedNow = new HashSet<>();
        for (Row r : rows) {
            if (r.state() == State.DIVERGED) {
                divergedNow.add(r.entry().id());
                if (local.get(r.entry().id()) == r.entry()) {
                    diverged(r.entry(), ring());
                }
            }
        }
        loggedDiverged.retainAll(divergedNow);
        if (local.values().removeIf(e -> now - e.reportedAt() >= forgetMillis)) {
            localChanges.incrementAndGet();
        }
        medians = LatencySketch.medians(localLatencies(now), remoteLatencies.values());
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
    List<Entry> localEntries() {
        return new ArrayList<>(local.values());
    }

    /** What the other instances posted now: instance to followers and to latency sketches. */
    void remote(Map<String, Map<String, Entry>> followers, Map<String, Map<String, double[]>> latencies) {
        this.remote = Map.copyOf(followers);
        this.remoteLatencies = Map.copyOf(latencies);
    }

    /** For tests: the entry this instance holds for {@code id}. */
    Entry localEntry(String id) {
        return local.get(id);
    }

    @Override
    public String toString() {
        return "followers of ring " + ringName + " (" + local.size() + " here, "
                + Arrays.toString(remote.keySet().toArray()) + ")";
    }
}
