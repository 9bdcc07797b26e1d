package io.ringd.follow;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/** What the followers of a ring add up to: the counts of each state, and how far they converged. */
final class FollowerCounts {

    private FollowerCounts() {
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

    /**
     * What the followers added up to at {@code at}, true until {@code validUntil} unless {@code stamp}
     * moved.
     *
     * @param summary    the counts of each state
     * @param tally      the live followers, for convergence questions
     * @param stamp      the registry's change count it was made at
     * @param at         when it was counted
     * @param validUntil when the first live follower falls silent (or {@code at + 1} before the ring has loaded)
     * @param forgetAt   when the first follower of this instance's is to be forgotten
     * @param latencies  whether any live follower reported latencies
     */
    record Census(FollowerCounts.Summary summary, FollowerCounts.Tally tally, long stamp, long at, long validUntil,
            long forgetAt, boolean latencies) {
    }

    /**
     * Counts {@code all} (the newest entry of each follower) at {@code now}: the states by
     * {@code state}, each diverged follower told to {@code diverged}, the live ones' versions
     * sorted for convergence questions; {@code ringVersion} -1 before the ring has loaded.
     * {@code local} (this instance's own entries) sets when the first is to be forgotten.
     */
    static Census census(Collection<FollowerEntry> all, Collection<FollowerEntry> local,
            Function<FollowerEntry, FollowerState> state,
            Consumer<FollowerEntry> diverged, long ringVersion, long now, long atStamp, long ttlMillis,
            long forgetMillis) {
        int[] n = new int[FollowerState.values().length];
        long[] versions = new long[all.size() + 16]; // room for reports arriving while counting
        int live = 0;
        int divergedCount = 0;
        long validUntil = ringVersion < 0 ? now + 1 : Long.MAX_VALUE;
        long forgetAt = Long.MAX_VALUE;
        boolean latencies = false;
        for (FollowerEntry e : all) {
            FollowerState st = state.apply(e);
            n[st.ordinal()]++;
            if (st == FollowerState.SILENT) {
                continue;
            }
            validUntil = Math.min(validUntil, e.reportedAt() + ttlMillis);
            latencies |= !e.latencies().isEmpty();
            live++;
            if (st == FollowerState.DIVERGED) {
                divergedCount++;
                diverged.accept(e);
            } else {
                if (live - divergedCount > versions.length) {
                    versions = Arrays.copyOf(versions, versions.length * 2);
                }
                versions[live - divergedCount - 1] = e.version();
            }
        }
        for (FollowerEntry e : local) {
            forgetAt = Math.min(forgetAt, e.reportedAt() + forgetMillis);
        }
        long[] sorted = Arrays.copyOf(versions, live - divergedCount);
        Arrays.sort(sorted);
        return new Census(new Summary(Math.max(0, ringVersion), n[0], n[1], n[2], n[3]),
                new Tally(ringVersion, live, divergedCount, sorted), atStamp, now, validUntil, forgetAt, latencies);
    }

    /** The counts of each state in {@code rows}; {@code version} is the ring's. */
    static Summary summary(long version, List<FollowerRegistry.Row> rows) {
        int[] n = new int[FollowerState.values().length];
        for (FollowerRegistry.Row r : rows) {
            n[r.state().ordinal()]++;
        }
        return new Summary(version, n[0], n[1], n[2], n[3]);
    }

    /** The tally of {@code rows} against the ring's version {@code ringVersion} (-1 before it loaded). */
    static Tally tally(long ringVersion, List<FollowerRegistry.Row> rows) {
        long[] versions = new long[rows.size()];
        int n = 0;
        int followers = 0;
        int diverged = 0;
        for (FollowerRegistry.Row r : rows) {
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
        return new Tally(ringVersion, followers, diverged, live);
    }
}
