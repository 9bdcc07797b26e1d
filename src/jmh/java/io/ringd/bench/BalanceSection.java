package io.ringd.bench;

import static io.ringd.bench.Report.bytes;
import static io.ringd.bench.Report.f;
import static io.ringd.bench.Report.n;
import static io.ringd.bench.Report.ratio;

import io.ringd.ring.HashRing;
import io.ringd.ring.JumpHash;
import io.ringd.ring.KeyHashes;
import io.ringd.ring.Node;
import io.ringd.ring.RendezvousHash;
import io.ringd.ring.RingConfig;

import java.awt.Color;
import java.io.IOException;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.style.Styler;

/** Section 1: balance of exact ownership against points per node, and the points to choose. */
final class BalanceSection {

    static final int[] SIZES = {5, 50, 500};
    /** The ladder of points per weight, with the default 128 slotted in. */
    static final int[] VNODES = {1, 2, 5, 10, 20, 50, 100, 128, 160, 200, 500, 1000};
    /** max / mean the recommendation aims for, and a tighter one. */
    static final double TARGET = 1.10;
    static final double TIGHT = 1.05;
    /**
     * Bytes a ring keeps per point: points[] and owners[] (4 + 4, what a
     * lookup reads), each member's vnode hashes (4) and the builder's sorted
     * (point, member) entries (8): HashRing's and RingBuilder's design notes.
     */
    static final int BYTES_PER_POINT = 4 + 4 + 4 + 8;
    /** A larger Maglev table for 500 nodes: the smallest prime of at least ten times the default. */
    static final int LARGE_TABLE = Placements.nextPrime(10 * 65_536);

    /** Rows per cluster size, in table order. */
    final Map<Integer, List<Row>> rows = new LinkedHashMap<>();
    /** md5 ring balance per size, per {@link #VNODES} entry. */
    final Map<Integer, Balance[]> md5 = new LinkedHashMap<>();
    /** Per size and ladder entry: max / mean of md5 rings over {@link #idSets} sets of ids, mean and worst. */
    final Map<Integer, double[]> setMean = new LinkedHashMap<>();
    final Map<Integer, double[]> setWorst = new LinkedHashMap<>();
    /** Per size and ladder entry: the CV of md5 rings, mean over the sets of ids. */
    final Map<Integer, double[]> setCv = new LinkedHashMap<>();
    /** How many sets of ids the ring's balance is averaged over (the first is the tables' own). */
    int idSets;
    /** Sampled HRW assignments of the report's keys per size, for the movement section. */
    final Map<Integer, String[]> hrwAssignments = new LinkedHashMap<>();
    private long measuredBytes;
    private long measuredPoints;

    record Row(String placement, String perNode, Balance balance, String sets, String memory, String how) {
    }

    /** Set {@code s} of {@code n} ids: the tables' {@code node-0000 ..} for 0, else {@code s1-node-0000 ..}. */
    static List<Node> idSet(int s, int n) {
        if (s == 0) {
            return Fixtures.nodes(n);
        }
        List<Node> nodes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            nodes.add(Node.of(f("s%d-node-%04d", s, i), 1));
        }
        return nodes;
    }

    void compute(Report report, long[] keyHashes) {
        idSets = report.quick ? 3 : 10;
        for (int n : SIZES) {
            List<Node> nodes = Fixtures.nodes(n);
            List<Row> list = new ArrayList<>();
            Balance[] ring = new Balance[VNODES.length];
            double[] mean = new double[VNODES.length];
            double[] worst = new double[VNODES.length];
            double[] cvs = new double[VNODES.length];
            for (int i = 0; i < VNODES.length; i++) {
                int v = VNODES[i];
                ring[i] = Balance.ring(KeyHashes.md5(), n, v);
                double sum = ring[i].maxOverMean();
                double cv = ring[i].cv();
                worst[i] = sum;
                for (int set = 1; set < idSets; set++) {
                    Balance b = Balance.exact(HashRing.of(RingConfig.of("md5", v), 1, idSet(set, n)));
                    sum += b.maxOverMean();
                    cv += b.cv();
                    worst[i] = Math.max(worst[i], b.maxOverMean());
                }
                mean[i] = sum / idSets;
                cvs[i] = cv / idSets;
                list.add(new Row("ring (md5)", v == 128 ? "128 (default)" : String.valueOf(v), ring[i],
                        ratio(mean[i]) + " (" + ratio(worst[i]) + ")",
                        bytes((double) BYTES_PER_POINT * ring[i].points()), "exact"));
            }
            setMean.put(n, mean);
            setWorst.put(n, worst);
            setCv.put(n, cvs);
            md5.put(n, ring);
            HashRing ketama = HashRing.of(RingConfig.ketama(), 1, nodes);
            Balance k = Balance.exact(ketama);
            list.add(new Row("ketama", f("%d points", k.points() / n), k, "-",
                    bytes((double) BYTES_PER_POINT * k.points()), "exact"));
            for (int m : n == 500 ? new int[] {Placements.DEFAULT_TABLE, LARGE_TABLE}
                    : new int[] {Placements.DEFAULT_TABLE}) {
                HashRing table = HashRing.of(RingConfig.maglev(KeyHashes.md5(), m), 1, nodes);
                list.add(new Row("Maglev, M = " + n(m), f("%.0f entries", (double) m / n), Balance.exact(table),
                        "-", bytes(4.0 * m), "exact"));
            }
            String[] hrw = Balance.assign(RendezvousHash.of(KeyHashes.md5(), nodes), keyHashes);
            hrwAssignments.put(n, hrw);
            String sample = f("%s keys (sampling floor: CV %.4f)", n(keyHashes.length),
                    Balance.samplingFloorCv(n, keyHashes.length));
            list.add(new Row("HRW", "-", Balance.sampled(hrw, nodes), "-", "20 B a node", sample));
            String[] jump = Balance.assign(JumpHash.of(KeyHashes.md5(), Placements.ids(nodes)), keyHashes);
            list.add(new Row("jump", "-", Balance.sampled(jump, nodes), "-", "4 B a node", sample));
            rows.put(n, list);
        }
        measureMemory();
    }

    /**
     * Heap held by the largest ring of the table (500 nodes x 1000 points),
     * after full collections, against the computed {@link #BYTES_PER_POINT}.
     */
    private void measureMemory() {
        List<Node> nodes = Fixtures.nodes(500);
        RingConfig config = RingConfig.of("md5", 1000);
        HashRing.of(config, 1, Fixtures.nodes(5)); // load and warm what building needs
        long before = usedAfterGc();
        HashRing ring = HashRing.of(config, 1, nodes);
        long after = usedAfterGc();
        Reference.reachabilityFence(ring);
        measuredBytes = after - before;
        measuredPoints = ring.pointCount();
    }

    private static long usedAfterGc() {
        Runtime rt = Runtime.getRuntime();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            used = Math.min(used, rt.totalMemory() - rt.freeMemory());
        }
        return used;
    }

    /**
     * The smallest ladder value (not the default) whose max / mean, averaged
     * over the sets of ids, is at most {@code target}; -1 if none is.
     */
    int recommended(int n, double target) {
        double[] mean = setMean.get(n);
        for (int i = 0; i < VNODES.length; i++) {
            if (VNODES[i] != 128 && mean[i] <= target) {
                return i;
            }
        }
        return -1;
    }

    /** One summary line per size. */
    List<String> recommendations() {
        List<String> out = new ArrayList<>();
        for (int n : SIZES) {
            int i = recommended(n, TARGET);
            if (i < 0) {
                out.add(f("%d nodes: no ladder value reaches max / mean %.2f", n, TARGET));
                continue;
            }
            Balance b = md5.get(n)[i];
            out.add(f("**%d nodes: %d points per weight** (max / mean %s on average over %d sets of ids, %s at "
                    + "worst; %s points, %s)", n, VNODES[i], ratio(setMean.get(n)[i]), idSets,
                    ratio(setWorst.get(n)[i]), n(b.points()), bytes((double) BYTES_PER_POINT * b.points())));
        }
        return out;
    }

    void write(Report r) throws IOException {
        r.line("## 1. Balance: how many points per node");
        r.line();
        r.para("Each node's share of the hash space, from its **exact** ownership count (`HashRing.ownership()`: "
                + "the sum of its arcs, no sampling) for N equal-weight nodes `node-0000` ... **max / mean** is the "
                + "fullest node's share over the fair share 1/N (1.25: that node gets 25% more keys than its "
                + "share), **min / mean** the emptiest node's, and **CV** the coefficient of variation of the "
                + "shares (standard deviation over mean). Exact as they are, these figures belong to these ids: "
                + "another set of ids is another draw. So the ring rows also give max / mean over " + idSets
                + " sets of ids (`node-0000` ..., `s1-node-0000` ..., ...), the mean and, in brackets, the worst; "
                + "the recommendation below uses those. Rings hash with md5; ketama places libketama's 160 points "
                + "per node (40 digests of 4 points) whatever the setting; Maglev fills a table of M entries "
                + "(M = 65,537, the default, and for 500 nodes also M = " + n(LARGE_TABLE) + ", the smallest "
                + "prime above ten times the default). HRW and jump have no arcs or entries, so no exact "
                + "ownership (short of scoring all 2^32 hash values against every node): their shares are "
                + "**estimated** by routing " + n(r.sampleKeys) + " keys (`user:0` ..., md5), and a perfectly "
                + "fair placement shows a CV of about sqrt((N-1)/keys) on such a sample (the \"sampling floor\" "
                + "in the table), so their rows measure the sample as much as the algorithm. **memory** is "
                + BYTES_PER_POINT + " bytes a ring point, computed from HashRing's arrays (`points[]` and "
                + "`owners[]`, 4 + 4 bytes, what a lookup reads; each node's vnode hashes, 4; the builder's "
                + "sorted (point, member) entries, 8), and 4 bytes a Maglev entry (`owners[]`); every placement "
                + "also holds the node ids.");
        for (int n : SIZES) {
            r.line("### " + n + " nodes");
            r.line();
            Report.Table t = new Report.Table("placement", ">points per node", ">max / mean", ">min / mean", ">CV",
                    ">max / mean, " + idSets + " id sets: mean (worst)", ">memory", "ownership");
            for (Row row : rows.get(n)) {
                Balance b = row.balance();
                t.row(row.placement(), row.perNode(), ratio(b.maxOverMean()), ratio(b.minOverMean()),
                        f("%.4f", b.cv()), row.sets(), row.memory(), row.how());
            }
            t.writeTo(r);
            r.provenance("exact ownership except HRW and jump (sampled).");
        }
        r.image("the fullest node's excess over its fair share, and the CV of the shares, against points per "
                + "node", "balance-vnodes");

        r.line("### Recommendation");
        r.line();
        r.para(f("A ring's shares follow the statistics of its arcs: a node's share is the sum of v arcs, so "
                + "the CV is close to 1/sqrt(v) (the dashed line in the plot; about (N-1)/N of it for few nodes, "
                + "whose shares, adding up to 1, vary less), and the fullest of N "
                + "nodes sits a few standard deviations above the mean, more of them the more nodes there are "
                + "(about 1.2 for 5 nodes, 2.3 for 50, 3 for 500). More nodes therefore need more points per "
                + "node for the same max / mean. The table picks the smallest ladder value whose max / mean, "
                + "averaged over the %d sets of ids, is at most %.2f (no node more than %.0f%% over its fair "
                + "share), and the one for %.2f:", idSets, TARGET, 100 * (TARGET - 1), TIGHT));
        Report.Table t = new Report.Table(">nodes", ">points per weight", ">max / mean: mean (worst)", ">points",
                ">memory", ">for max / mean <= " + f("%.2f", TIGHT), ">at 128 (default): mean (worst)");
        for (int n : SIZES) {
            int i = recommended(n, TARGET);
            int j = recommended(n, TIGHT);
            int d = indexOf(128);
            String def = ratio(setMean.get(n)[d]) + " (" + ratio(setWorst.get(n)[d]) + ")";
            String tight = j < 0 ? "more than 1000" : f("%d (%s, %s)", VNODES[j], ratio(setMean.get(n)[j]),
                    bytes((double) BYTES_PER_POINT * md5.get(n)[j].points()));
            if (i < 0) {
                t.row(n, "more than 1000", "-", "-", "-", tight, def);
                continue;
            }
            Balance b = md5.get(n)[i];
            t.row(n, VNODES[i], ratio(setMean.get(n)[i]) + " (" + ratio(setWorst.get(n)[i]) + ")", n(b.points()),
                    bytes((double) BYTES_PER_POINT * b.points()), tight, def);
        }
        t.writeTo(r);
        r.provenance(f("exact ownership, md5 ring, %d sets of ids.", idSets));
        r.para(f("Memory is %d bytes a point times N times the points per weight (times the weight); the figure "
                + "was checked by measurement: a ring of 500 nodes x 1000 points (%s points) added %s to the "
                + "heap after full collections, %.1f bytes a point including the 500 nodes themselves. Only the "
                + "8 bytes a point of `points[]` and `owners[]` are read by lookups; a larger ring costs a little "
                + "more search time (section 4) and more time to build and to diff (linear in the points). "
                + "Weights multiply the points (a node of weight 2 has twice as many, one of weight 0.5 half as "
                + "many), so choose the setting that gives the lightest node the points recommended; the ring's "
                + "limit of 4,000,000 points (docs/ring.md section 11) caps the total weight at 4,000 at 1000 "
                + "points per weight. Maglev reaches the balance of thousands of points per node with one "
                + "4-byte entry per slot, at the price of extra movement (section 3).",
                BYTES_PER_POINT, n(measuredPoints), bytes(measuredBytes), (double) measuredBytes / measuredPoints));
        plot(r);
    }

    static int indexOf(int vnodes) {
        for (int i = 0; i < VNODES.length; i++) {
            if (VNODES[i] == vnodes) {
                return i;
            }
        }
        throw new IllegalArgumentException("not on the ladder: " + vnodes);
    }

    private void plot(Report r) throws IOException {
        XYChart max = Charts.xy(f("Ring (md5): fullest node, mean of %d id sets", idSets), "points per node",
                "max / mean - 1, in % (log)");
        XYChart cv = Charts.xy(f("Ring (md5): spread of the shares, mean of %d id sets", idSets), "points per node",
                "CV of the shares (log)");
        for (XYChart c : List.of(max, cv)) {
            c.getStyler().setXAxisLogarithmic(true);
            c.getStyler().setYAxisLogarithmic(true);
            c.getStyler().setLegendPosition(Styler.LegendPosition.InsideSW);
        }
        double[] x = new double[VNODES.length];
        for (int i = 0; i < x.length; i++) {
            x[i] = VNODES[i];
        }
        for (int n : SIZES) {
            Balance[] b = md5.get(n);
            double[] ym = new double[b.length];
            double[] yc = new double[b.length];
            for (int i = 0; i < b.length; i++) {
                ym[i] = 100 * (setMean.get(n)[i] - 1);
                yc[i] = setCv.get(n)[i];
            }
            Charts.line(max, "ring, " + n + " nodes", x, ym);
            Charts.line(cv, "ring, " + n + " nodes", x, yc);
        }
        double[] kx = new double[SIZES.length];
        double[] ky = new double[SIZES.length];
        for (int i = 0; i < SIZES.length; i++) {
            Row ketama = rows.get(SIZES[i]).stream().filter(row -> row.placement().equals("ketama")).findFirst()
                    .orElseThrow();
            kx[i] = (double) ketama.balance().points() / SIZES[i];
            ky[i] = 100 * (ketama.balance().maxOverMean() - 1);
        }
        Charts.dots(max, "ketama (160 points; node-0000 ...)", kx, ky);
        double[] theory = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            theory[i] = 1 / Math.sqrt(x[i]);
        }
        Charts.reference(cv, "1 / sqrt(points)", x, theory, Color.GRAY);
        Charts.reference(max, f("target: %.0f%%", 100 * (TARGET - 1)), new double[] {1, 1000},
                new double[] {100 * (TARGET - 1), 100 * (TARGET - 1)}, Color.GRAY);
        Charts.save(r.plot("balance-vnodes"), max, cv);
    }
}
