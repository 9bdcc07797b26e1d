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

    /** Counts of the followers in each state. */
    record Summary(long version, int current, int behind, int diverged, int silent) {

        static final Summary EMPTY = new Summary(0, 0, 0, 0, 0);

        int total() {
            return current + behind + diverged + silent;
        }

        /** The share of the followers that are not silent at the ring's version; 1 with none. */
        double convergedShare() {
            int live = current + behind + diverged;
            return live == 0 ? 1 : (double) current / live;
        }
    }

    /** The answer of a convergence question. */
    record Convergence(long version, double share, boolean converged, int followers, int atOrPast, int diverged) {
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
    /** Fingerprints of the versions this instance served, for checking reports; pruned to the kept ones. */
    private final ConcurrentHashMap<Long, String> fingerprints = new ConcurrentHashMap<>();
    /** Followers whose divergence was logged: each is logged once while it stays diverged. */
    private final Set<String> loggedDiverged = ConcurrentHashMap.newKeySet();
    /** The earliest time a local entry may be silent: before it, a full ring has none to let go. */
    private volatile long noSilentBefore;
    private volatile Map<String, Double> medians = Map.of();
    /** Set on every report that may change an answer; cleared by whoever recounts. */
    private volatile boolean changed = true;
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
        fingerprints.put(current.version(), current.fingerprint());
        long oldest = service.oldestVersion();
        if (fingerprints.size() > 64) {
            fingerprints.keySet().removeIf(v -> v < oldest);
        }
        changed = true;
    }

    /** The current state, or {@code null} before the ring has loaded. */
    private RingState ring() {
        return service.isLoaded() ? service.current() : null;
    }

    /**
     * The fingerprint of {@code version} when it is kept (a few are computed from the
     * history the first time they are asked for), or {@code null} when it is not kept or
     * cannot be worked out now (then {@code unknown} is set).
     */
    private String fingerprintAt(long version, RingState cur, boolean[] unknown) {
        if (version == cur.version()) {
            return cur.fingerprint();
        }
        if (version < service.oldestVersion() || version > cur.version()) {
            return null;
        }
        String known = fingerprints.get(version);
        if (known != null) {
            return known;
        }
        try {
            String recorded = version > service.oldestVersion()
                    ? service.history().delta(version).fingerprint() : null;
            String fp = recorded != null ? recorded : service.ringAt(version).fingerprint();
            fingerprints.put(version, fp);
            return fp;
        } catch (VersionException e) {
            return null; // the history moved past it meanwhile
        } catch (RuntimeException e) { // busy: checked again when read
            unknown[0] = true;
            return null;
        }
    }

    /**
     * Whether {@code fingerprint} is {@code version}'s: {@code true} for a version no
     * longer kept (it cannot be checked), {@code null} for a version this instance has not
     * made (yet) or cannot check now.
     */
    private Boolean check(long version, String fingerprint, RingState cur) {
        if (version > cur.version()) {
            return null;
        }
        boolean[] unknown = new boolean[1];
        String fp = fingerprintAt(version, cur, unknown);
        if (fp == null) {
            return unknown[0] ? null : Boolean.TRUE;
        }
        return fp.equals(fingerprint);
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
        Boolean match = cur == null ? null : check(version, fingerprint, cur);
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
            changed = true;
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
        changed = true;
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
        TreeMap<String, Entry> all = new TreeMap<>(local);
        for (Map<String, Entry> m : remote.values()) {
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
            match = e.fingerprint() == null ? Boolean.TRUE : check(e.version(), e.fingerprint(), cur);
            if (match == null) { // newer than this ring: never made, as far as this instance knows
                return new Row(e, State.DIVERGED, 0);
            }
        }
        if (!match) {
            return new Row(e, State.DIVERGED, lag);
        }
        return new Row(e, e.version() >= ringVersion ? State.CURRENT : State.BEHIND, lag);
    }

    /** The counts of each state at {@code now}. */
    Summary summary(List<Row> rows) {
        int[] n = new int[State.values().length];
        for (Row r : rows) {
            n[r.state().ordinal()]++;
        }
        RingState cur = ring();
        return new Summary(cur == null ? 0 : cur.version(), n[0], n[1], n[2], n[3]);
    }

    /**
     * The followers that are not silent, read once for many convergence questions: how
     * many, how many diverged, and the versions of the others, ascending.
     */
    record Tally(long ringVersion, int followers, int diverged, long[] versions) {

        /**
         * Whether at least {@code share} of the followers that are not silent report {@code version}
         * or later with matching fingerprints; never before the ring itself has reached {@code version}.
         */
        Convergence converged(long version, double share) {
            int from = Arrays.binarySearch(versions, version);
            if (from < 0) {
                from = -from - 1;
            } else {
                while (from > 0 && versions[from - 1] == version) {
                    from--;
                }
            }
            int atOrPast = versions.length - from;
            boolean converged = ringVersion >= version && (followers == 0 || atOrPast + 1e-9 >= share * followers);
            return new Convergence(version, share, converged, followers, atOrPast, diverged);
        }
    }

    /** The tally of {@code rows}. */
    Tally tally(List<Row> rows) {
        long[] versions = new long[rows.size()];
        int n = 0;
        int followers = 0;
        int diverged = 0;
        for (Row r : rows) {
            switch (r.state()) {
                case SILENT -> {
                }
                case DIVERGED -> {
                    followers++;
                    diverged++;
                }
                default -> {
                    followers++;
                    versions[n++] = r.entry().version();
                }
            }
        }
        long[] live = Arrays.copyOf(versions, n);
        Arrays.sort(live);
        RingState cur = ring();
        return new Tally(cur == null ? -1 : cur.version(), followers, diverged, live);
    }

    /** Whether a report changed something since the last call; clears it. */
    boolean takeChanged() {
        boolean was = changed;
        changed = false;
        return was;
    }

    void markChanged() {
        changed = true;
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
        medians = Map.copyOf(latencyMedians(rows));
    }

    @Override
    public Map<String, Double> medians() {
        return medians;
    }

    /**
     * The latest latency of each node that this instance's live followers reported, as a
     * sketch: every value when there are at most {@link LatencySketch#POINTS}, else that many
     * order statistics.
     */
    Map<String, double[]> localLatencies(long now) {
        Map<String, List<Double>> values = new HashMap<>();
        for (Entry e : local.values()) {
            if (now - e.reportedAt() < ttlMillis) {
                for (Map.Entry<String, Double> l : e.latencies().entrySet()) {
                    values.computeIfAbsent(l.getKey(), k -> new ArrayList<>()).add(l.getValue());
                }
            }
        }
        Map<String, double[]> out = new HashMap<>();
        values.forEach((node, list) -> out.put(node, LatencySketch.of(list)));
        return out;
    }

    private Map<String, Double> latencyMedians(List<Row> rows) {
        long now = clock.getAsLong();
        Map<String, double[]> mine = localLatencies(now);
        Map<String, Map<String, double[]>> others = remoteLatencies;
        if (mine.isEmpty() && others.isEmpty()) {
            return Map.of();
        }
        Map<String, List<double[]>> byNode = new HashMap<>();
        mine.forEach((node, s) -> byNode.computeIfAbsent(node, k -> new ArrayList<>()).add(s));
        for (Map<String, double[]> m : others.values()) {
            m.forEach((node, s) -> byNode.computeIfAbsent(node, k -> new ArrayList<>()).add(s));
        }
        Map<String, Double> out = new HashMap<>();
        byNode.forEach((node, sketches) -> out.put(node, LatencySketch.median(sketches)));
        return out;
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
        changed = true;
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
