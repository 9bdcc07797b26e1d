package io.ringd.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.function.LongSupplier;
import java.util.function.Supplier;


import io.ringd.ring.Node;
import io.ringd.ring.RingException;
import io.ringd.state.NodeLoads;
import io.ringd.state.RingListener;
import io.ringd.state.RingState;

/**
 * The load of every member of the ring this instance serves: the load an
 * admin reported, while it is younger than the report TTL, or else the
 * member's decayed count of the keys routed to it. Follows the ring's members
 * as a {@link RingListener}; counting and reading take no lock.
 */
class LoadTracker implements NodeLoads, RingListener {

    /*
     * Design note.
     *
     * Decay. A member's decayed count at time t is
     *     D(t) = sum over the keys routed to it at times t_i <= t of 2^(-(t - t_i) / h),
     * h the half-life: a key counts 1 when it is routed and half as much every h after.
     * It is kept as forward decay (Cormode, Shkapenyuk, Srivastava and Xu, ICDE 2009): with
     * a landmark L shared by every member, a key adds the weight 2^((t_i - L) / h) to the
     * member's sum S, and D(t) = S * 2^(-(t - L) / h). Counting a key is one exp and one
     * DoubleAdder.add (lock-free and striped, so a hot member is not one contended word);
     * reading a member is a sum and a multiply, the same factor for every member.
     *
     * Epochs. Weights grow with t - L, so the landmark moves on: once t - L reaches
     * EPOCH_HALF_LIVES half-lives, the table is swapped (compare-and-set) for one whose
     * landmark is t, with fresh sums, keeping the old sums as prev with their landmark:
     *     D(t) = cur * 2^(-(t - L) / h) + prev * 2^(-(t - Lprev) / h).
     * The sums of the epoch before prev are dropped: their keys are at least
     * EPOCH_HALF_LIVES half-lives old and weigh less than 2^-64 each. A weight is at most
     * about 2^64, so no sum overflows; an add that races a swap lands in sums the new table
     * still reads (as prev), against the landmark it was weighed with.
     *
     * Members. A Table is immutable but for its sums and its members' reports, and is
     * replaced whole (compare-and-set) on every ring swap and every new epoch. A member that
     * stays keeps its sums and its Member (so its report); one that leaves drops both; one
     * that joins starts at 0 with no report. Invariants: ids ascending; index maps each id
     * to its position; members, cur and prev are parallel to ids; prev[i] is null for a
     * member that joined during the current epoch.
     *
     * Reports. A Report is an immutable (load, time) pair in a volatile field. It stands in
     * for the decayed count while now - time < the report TTL; the decayed count goes on
     * counting under it. Means are summed in ascending id order everywhere, so GET /loads
     * shows the very mean a bounded lookup compares with; a sum that overflows (reported
     * loads near Double.MAX_VALUE) is taken again as a sum of load / members, which does not.
     *
     * Time is a monotonic nanosecond count (System::nanoTime), injected for tests.
     */

    /** Half-lives between two moves of the landmark. */
    static final int EPOCH_HALF_LIVES = 64;

    private final LongSupplier nanos;
    private final double halfLifeNanos;
    /** ln 2 / h, per nanosecond. */
    private final double rate;
    private final long epochNanos;
    private final long ttlNanos;
    private final AtomicReference<Table> table;
    /**
     * With {@code ringd.load.source=followers}: the median latency the followers reported of each
     * member (docs/ring.md section 23), which is then the load; {@code null} for the routed source.
     */
    private volatile Supplier<Map<String, Double>> followers;

    LoadTracker(LoadProperties properties) {
        this(properties, System::nanoTime);
    }

    /**
     * Makes the followers' latencies the loads ({@code ringd.load.source=followers}): a member's
     * load is the median of the latest latencies its followers reported, and a member nobody
     * reported takes the mean of the others; decayed counts go on being kept, and shown.
     */
    void useFollowers(Supplier<Map<String, Double>> latencies) {
        this.followers = Objects.requireNonNull(latencies, "latencies");
    }

    /** Whether the loads are the followers' latencies. */
    boolean fromFollowers() {
        return followers != null;
    }

    private FollowerLatencies latencies(Table t) {
        Supplier<Map<String, Double>> f = followers;
        return f == null ? null : new FollowerLatencies(t.ids, f.get());
    }

    LoadTracker(LoadProperties properties, LongSupplier nanos) {
        this(properties.halfLife(), properties.reportTtl(), nanos);
    }

    LoadTracker(Duration halfLife, Duration reportTtl, LongSupplier nanos) {
        if (halfLife.toNanos() <= 0 || reportTtl.toNanos() <= 0) {
            throw new IllegalArgumentException("half-life and report TTL must be positive: " + halfLife + ", "
                    + reportTtl);
        }
        this.nanos = Objects.requireNonNull(nanos, "nanos");
        this.halfLifeNanos = halfLife.toNanos();
        this.rate = Math.log(2) / halfLifeNanos;
        this.epochNanos = Math.multiplyExact(halfLife.toNanos(), EPOCH_HALF_LIVES);
        this.ttlNanos = reportTtl.toNanos();
        this.table = new AtomicReference<>(Table.empty(nanos.getAsLong()));
    }

    /** One member's reported load and when it was reported. */
    private record Report(double load, long at) {
    }

    /** A member as long as it stays one: holds its report. */
    private static final class Member {
        volatile Report report;
    }

    /** The members of one version and their sums in the current and previous epochs. */
    private static final class Table {
        final long version;
        final String[] ids;
        final Map<String, Integer> index;
        final Member[] members;
        final long landmark;
        final DoubleAdder[] cur;
        final long prevLandmark;
        final DoubleAdder[] prev;

        Table(long version, String[] ids, Map<String, Integer> index, Member[] members, long landmark,
                DoubleAdder[] cur, long prevLandmark, DoubleAdder[] prev) {
            this.version = version;
            this.ids = ids;
            this.index = index;
            this.members = members;
            this.landmark = landmark;
            this.cur = cur;
            this.prevLandmark = prevLandmark;
            this.prev = prev;
        }

        static Table empty(long now) {
            return new Table(-1, new String[0], Map.of(), new Member[0], now, new DoubleAdder[0], now,
                    new DoubleAdder[0]);
        }

        /** These sums under a landmark at {@code now}, the current ones becoming the previous ones. */
        Table nextEpoch(long now) {
            DoubleAdder[] fresh = new DoubleAdder[ids.length];
            for (int i = 0; i < fresh.length; i++) {
                fresh[i] = new DoubleAdder();
            }
            return new Table(version, ids, index, members, now, fresh, landmark, cur);
        }

        /** The members of {@code nodes} (ascending ids) at {@code v}, keeping what stays. */
        Table withMembers(long v, List<Node> nodes) {
            int n = nodes.size();
            String[] nextIds = new String[n];
            Map<String, Integer> nextIndex = new HashMap<>(n * 2);
            Member[] nextMembers = new Member[n];
            DoubleAdder[] nextCur = new DoubleAdder[n];
            DoubleAdder[] nextPrev = new DoubleAdder[n];
            for (int i = 0; i < n; i++) {
                String id = nodes.get(i).id();
                nextIds[i] = id;
                nextIndex.put(id, i);
                Integer old = index.get(id);
                if (old != null) {
                    nextMembers[i] = members[old];
                    nextCur[i] = cur[old];
                    nextPrev[i] = prev[old];
                } else {
                    nextMembers[i] = new Member();
                    nextCur[i] = new DoubleAdder();
                }
            }
            return new Table(v, nextIds, Map.copyOf(nextIndex), nextMembers, landmark, nextCur, prevLandmark,
                    nextPrev);
        }
    }

    // ---------------------------------------------------------------- the ring's members

    @Override
    public void ringSwapped(RingState previous, RingState current, Op op) {
        for (;;) {
            Table t = table.get();
            if (table.compareAndSet(t, t.withMembers(current.version(), current.nodes()))) {
                return;
            }
        }
    }

    /** The table, its epoch moved on first if {@code now} is past it. */
    private Table fresh(long now) {
        Table t = table.get();
        while (now - t.landmark >= epochNanos) {
            Table next = t.nextEpoch(now);
            if (table.compareAndSet(t, next)) {
                return next;
            }
            t = table.get();
        }
        return t;
    }

    // ---------------------------------------------------------------- NodeLoads

    /** One clock read, one weight and one add for the {@code count} keys, however many. */
    @Override
    public void routed(long version, String node, int count) {
        if (count <= 0) {
            return;
        }
        long now = nanos.getAsLong();
        Table t = fresh(now);
        if (t.version != version) {
            return;
        }
        Integer i = t.index.get(node);
        if (i != null) {
            t.cur[i].add(count * Math.exp((now - t.landmark) * rate));
        }
    }

    @Override
    public Reading read() {
        long now = nanos.getAsLong();
        Table t = fresh(now);
        FollowerLatencies l = latencies(t);
        if (l != null) {
            return new Reading() {
                @Override
                public double mean() {
                    return l.mean();
                }

                @Override
                public double load(String node) {
                    return t.index.containsKey(node) ? l.of(node) : 0;
                }
            };
        }
        return new TableReading(t, now);
    }

    @Override
    public double load(String node) {
        long now = nanos.getAsLong();
        Table t = fresh(now);
        Integer i = t.index.get(node);
        if (i == null) {
            return 0;
        }
        FollowerLatencies l = latencies(t);
        return l != null ? l.of(node) : loadAt(t, i, now, factor(now, t.landmark), factor(now, t.prevLandmark));
    }

    /** A reading of one table at one instant; the mean is summed when it is made. */
    private final class TableReading implements Reading {
        private final Table t;
        private final long now;
        private final double fc;
        private final double fp;
        private final double mean;

        TableReading(Table t, long now) {
            this.t = t;
            this.now = now;
            this.fc = factor(now, t.landmark);
            this.fp = factor(now, t.prevLandmark);
            double sum = 0;
            for (int i = 0; i < t.ids.length; i++) {
                sum += loadAt(t, i, now, fc, fp);
            }
            if (Double.isInfinite(sum)) { // reported loads near Double.MAX_VALUE: mean the quotients instead
                sum = 0;
                for (int i = 0; i < t.ids.length; i++) {
                    sum += loadAt(t, i, now, fc, fp) / t.ids.length;
                }
                this.mean = sum;
            } else {
                this.mean = t.ids.length == 0 ? 0 : sum / t.ids.length;
            }
        }

        @Override
        public double mean() {
            return mean;
        }

        @Override
        public double load(String node) {
            Integer i = t.index.get(node);
            return i == null ? 0 : loadAt(t, i, now, fc, fp);
        }
    }

    /** {@code 2^(-(now - landmark) / h)}. */
    private double factor(long now, long landmark) {
        return Math.exp(-(now - landmark) * rate);
    }

    private static double decayedAt(Table t, int i, double fc, double fp) {
        double d = t.cur[i].sum() * fc;
        DoubleAdder p = t.prev[i];
        return p == null ? d : d + p.sum() * fp;
    }

    private Report activeReport(Table t, int i, long now) {
        Report r = t.members[i].report;
        return r != null && now - r.at() < ttlNanos ? r : null;
    }

    private double loadAt(Table t, int i, long now, double fc, double fp) {
        Report r = activeReport(t, i, now);
        return r != null ? r.load() : decayedAt(t, i, fc, fp);
    }

    // ---------------------------------------------------------------- the admin calls' view

    /**
     * One member's load.
     *
     * @param id       the member
     * @param load     its load: the reported one when {@code reported}, else the decayed count
     * @param reported whether a report younger than the TTL stands in for the decayed count
     * @param decayed  its decayed count of routed keys, whether or not a report stands in for it
     * @param source   where {@code load} comes from: {@code reported}, {@code decayed} or {@code followers}
     */
    record Entry(String id, double load, boolean reported, double decayed, String source) {

        Entry(String id, double load, boolean reported, double decayed) {
            this(id, load, reported, decayed, reported ? "reported" : "decayed");
        }
    }

    /** Every member's load at one instant, ascending by id, and their mean; {@code version} is the members'. */
    record Snapshot(long version, double mean, List<Entry> nodes) {
    }

    /** One member's load and the version of the members it was read with. */
    record One(long version, Entry node) {
    }

    /** Every member's load now. */
    Snapshot snapshot() {
        long now = nanos.getAsLong();
        Table t = fresh(now);
        double fc = factor(now, t.landmark);
        double fp = factor(now, t.prevLandmark);
        List<Entry> entries = new ArrayList<>(t.ids.length);
        FollowerLatencies l = latencies(t);
        if (l != null) {
            for (int i = 0; i < t.ids.length; i++) {
                entries.add(new Entry(t.ids[i], l.of(t.ids[i]), false, decayedAt(t, i, fc, fp), "followers"));
            }
            return new Snapshot(t.version, l.mean(), List.copyOf(entries));
        }
        double sum = 0;
        for (int i = 0; i < t.ids.length; i++) {
            Entry e = entry(t, i, now, fc, fp);
            sum += e.load();
            entries.add(e);
        }
        double mean = t.ids.length == 0 ? 0 : sum / t.ids.length;
        if (Double.isInfinite(sum)) { // as TableReading does
            mean = 0;
            for (Entry e : entries) {
                mean += e.load() / t.ids.length;
            }
        }
        return new Snapshot(t.version, mean, List.copyOf(entries));
    }

    /**
     * Reports {@code load} for member {@code id}: its load until it is cleared, replaced,
     * older than the report TTL, or the member leaves.
     *
     * @throws IllegalArgumentException    unless load is finite and >= 0
     * @throws RingException.UnknownNode if {@code id} is not a member
     */
    One report(String id, double load) {
        if (!(load >= 0) || Double.isInfinite(load)) {
            throw new IllegalArgumentException("load must be a finite number >= 0: " + load);
        }
        long now = nanos.getAsLong();
        Table t = fresh(now);
        int i = indexOf(t, id);
        t.members[i].report = new Report(load + 0.0, now); // + 0.0: -0.0 is stored as 0.0
        return new One(t.version, entry(t, i, now, factor(now, t.landmark), factor(now, t.prevLandmark)));
    }

    /**
     * Clears member {@code id}'s report, if any: its decayed count is its load again.
     *
     * @throws RingException.UnknownNode if {@code id} is not a member
     */
    One clear(String id) {
        long now = nanos.getAsLong();
        Table t = fresh(now);
        int i = indexOf(t, id);
        t.members[i].report = null;
        return new One(t.version, entry(t, i, now, factor(now, t.landmark), factor(now, t.prevLandmark)));
    }

    private static int indexOf(Table t, String id) {
        Integer i = t.index.get(id);
        if (i == null) {
            throw new RingException.UnknownNode(id);
        }
        return i;
    }

    private Entry entry(Table t, int i, long now, double fc, double fp) {
        Report r = activeReport(t, i, now);
        double decayed = decayedAt(t, i, fc, fp);
        return new Entry(t.ids[i], r != null ? r.load() : decayed, r != null, decayed);
    }

    @Override
    public String toString() {
        Table t = table.get();
        return "LoadTracker[" + t.ids.length + " members, v" + t.version + ", half-life "
                + Duration.ofNanos((long) halfLifeNanos) + ", report TTL " + Duration.ofNanos(ttlNanos) + "]";
    }
}
