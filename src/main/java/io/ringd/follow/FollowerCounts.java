package io.ringd.follow;

import java.util.Arrays;
import java.util.List;

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

    /** The counts of each state in {@code rows}; {@code version} is the ring's. */
    static Summary summary(long version, List<FollowerRegistry.Row> rows) {
        int[] n = new int[FollowerRegistry.State.values().length];
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
