package io.ringd.follow;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The latest latencies that the followers of one instance reported for one
 * node, small enough to post: every value while there are at most
 * {@link #POINTS}, else {@link #POINTS} evenly spaced order statistics, with
 * the count they stand for. The median over several instances weighs each
 * point by the followers it stands for: exact while each instance has at most
 * {@link #POINTS} followers reporting the node, and within one step of the
 * order statistics beyond.
 *
 * <p>A sketch is a {@code double[]}: its first element the count of values,
 * then the points, ascending.
 */
final class LatencySketch {

    static final int POINTS = 101;

    private LatencySketch() {
    }

    static double[] of(List<Double> values) {
        double[] v = new double[values.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = values.get(i);
        }
        Arrays.sort(v);
        if (v.length <= POINTS) {
            double[] out = new double[v.length + 1];
            out[0] = v.length;
            System.arraycopy(v, 0, out, 1, v.length);
            return out;
        }
        double[] out = new double[POINTS + 1];
        out[0] = v.length;
        for (int i = 0; i < POINTS; i++) {
            out[i + 1] = v[(int) Math.round((double) i * (v.length - 1) / (POINTS - 1))];
        }
        return out;
    }

    /**
     * The latest latency of each node that the followers of {@code entries} reported while live (reported
     * less than {@code ttlMillis} before {@code now}), as a sketch per node.
     */
    static Map<String, double[]> ofLatest(Collection<FollowerEntry> entries, long now, long ttlMillis) {
        Map<String, List<Double>> values = new HashMap<>();
        for (FollowerEntry e : entries) {
            if (now - e.reportedAt() < ttlMillis) {
                for (Map.Entry<String, Double> l : e.latencies().entrySet()) {
                    values.computeIfAbsent(l.getKey(), k -> new ArrayList<>()).add(l.getValue());
                }
            }
        }
        Map<String, double[]> out = new HashMap<>();
        values.forEach((node, list) -> out.put(node, of(list)));
        return out;
    }

    /** Each node's median over this instance's sketches {@code mine} and the other instances' {@code others}. */
    static Map<String, Double> medians(Map<String, double[]> mine, Collection<Map<String, double[]>> others) {
        if (mine.isEmpty() && others.isEmpty()) {
            return Map.of();
        }
        Map<String, List<double[]>> byNode = new HashMap<>();
        mine.forEach((node, s) -> byNode.computeIfAbsent(node, k -> new ArrayList<>()).add(s));
        for (Map<String, double[]> m : others) {
            m.forEach((node, s) -> byNode.computeIfAbsent(node, k -> new ArrayList<>()).add(s));
        }
        Map<String, Double> out = new HashMap<>();
        byNode.forEach((node, sketches) -> out.put(node, median(sketches)));
        return Map.copyOf(out);
    }

    /** Whether {@code s} is a sketch: a count at least the number of points, points finite, >= 0 and ascending. */
    static boolean valid(double[] s) {
        if (s == null || s.length < 2 || s.length > POINTS + 1 || !(s[0] >= s.length - 1) || s[0] > 1e9) {
            return false;
        }
        for (int i = 1; i < s.length; i++) {
            if (!(s[i] >= 0) || Double.isInfinite(s[i]) || i > 1 && s[i] < s[i - 1]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The median of the values the sketches stand for: of every value, the middle one (the mean of the two
     * middle ones for an even count) when every sketch holds all its values; else the weighted median.
     */
    static double median(List<double[]> sketches) {
        boolean exact = true;
        List<double[]> points = new ArrayList<>(); // {value, weight}
        double total = 0;
        for (double[] s : sketches) {
            int n = s.length - 1;
            exact &= s[0] == n;
            double w = s[0] / n;
            for (int i = 1; i < s.length; i++) {
                points.add(new double[] {s[i], w});
            }
            total += s[0];
        }
        points.sort((a, b) -> Double.compare(a[0], b[0]));
        if (exact) {
            int n = points.size();
            return n % 2 == 1 ? points.get(n / 2)[0] : (points.get(n / 2 - 1)[0] + points.get(n / 2)[0]) / 2;
        }
        double half = total / 2;
        double seen = 0;
        for (double[] p : points) {
            seen += p[1];
            if (seen >= half) {
                return p[0];
            }
        }
        return points.get(points.size() - 1)[0];
    }
}
