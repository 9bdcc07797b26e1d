package io.ringd.load;

import java.util.Map;

/**
 * The loads of the members when the followers' latencies are the loads ({@code
 * ringd.load.source=followers}, docs/ring.md section 23): a member's load is the median
 * latency its followers reported, and one nobody reported takes the mean of the others.
 */
final class FollowerLatencies {

    private final Map<String, Double> medians;
    private final double mean;

    /** The loads of {@code ids} (the members) from {@code medians} (node to median latency). */
    FollowerLatencies(String[] ids, Map<String, Double> medians) {
        this.medians = medians;
        double sum = 0;
        int n = 0;
        for (String id : ids) {
            Double m = medians.get(id);
            if (m != null) {
                sum += m / ids.length; // no overflow, whatever the latencies
                n++;
            }
        }
        this.mean = n == 0 ? 0 : sum * ids.length / n;
    }

    /** The mean load over every member: the mean of those reported, 0 with none. */
    double mean() {
        return mean;
    }

    /** A member's load. */
    double of(String id) {
        Double m = medians.get(id);
        return m != null ? m : mean;
    }
}
