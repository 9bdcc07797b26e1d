package io.ringd.bench;

import static io.ringd.bench.Report.f;
import static io.ringd.bench.Report.n;
import static io.ringd.bench.Report.pct;
import static io.ringd.bench.Report.ratio;

import io.ringd.ring.HashRing;
import io.ringd.ring.KeyHash;
import io.ringd.ring.KeyHashes;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;

import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.style.Styler;

/** Section 2: why the {@code "X#i"} labels need a mixing hash. */
final class WeakHashSection {

    static final int GAP_NODES = 50;
    static final int GAP_VNODES = 100;
    /** Nodes whose points the plot shows. */
    static final int PLOTTED = 5;

    record Gaps(long points, double shortArcs, double longestArc, double sameOwner, double medianOwnGap,
            Balance balance) {
    }

    /** Per hash name: balance per size, per ladder entry of {@link BalanceSection#VNODES}. */
    final Map<String, Map<Integer, Balance[]>> balance = new LinkedHashMap<>();
    final Map<String, Gaps> gaps = new LinkedHashMap<>();
    private final Map<String, KeyHash> hashes = new LinkedHashMap<>();

    WeakHashSection() {
        hashes.put("md5", KeyHashes.md5());
        hashes.put("murmur3", KeyHashes.murmur3());
        hashes.put("fold31", FoldHash.INSTANCE);
    }

    void compute(BalanceSection section1) {
        for (Map.Entry<String, KeyHash> h : hashes.entrySet()) {
            Map<Integer, Balance[]> perSize = new LinkedHashMap<>();
            for (int n : BalanceSection.SIZES) {
                if (h.getKey().equals("md5")) {
                    perSize.put(n, section1.md5.get(n));
                    continue;
                }
                Balance[] b = new Balance[BalanceSection.VNODES.length];
                for (int i = 0; i < b.length; i++) {
                    b[i] = Balance.ring(h.getValue(), n, BalanceSection.VNODES[i]);
                }
                perSize.put(n, b);
            }
            balance.put(h.getKey(), perSize);
            gaps.put(h.getKey(), gaps(h.getValue()));
        }
    }

    /** Arc and per-node gap statistics of a ring of {@link #GAP_NODES} x {@link #GAP_VNODES} points. */
    static Gaps gaps(KeyHash hash) {
        List<Node> nodes = Fixtures.nodes(GAP_NODES);
        HashRing ring = HashRing.of(new RingConfig(hash, GAP_VNODES), 1, nodes);
        int p = ring.pointCount();
        double meanArc = (double) HashRing.HASH_SPACE / p;
        long shortArcs = 0;
        long longest = 0;
        long same = 0;
        for (int i = 0; i < p; i++) {
            long arc = i == 0 ? HashRing.HASH_SPACE - ring.pointAt(p - 1) + ring.pointAt(0)
                    : ring.pointAt(i) - ring.pointAt(i - 1);
            if (arc < 0.01 * meanArc) {
                shortArcs++;
            }
            longest = Math.max(longest, arc);
            if (ring.ownerAt(i).equals(ring.ownerAt(i == 0 ? p - 1 : i - 1))) {
                same++;
            }
        }
        double[] medians = new double[nodes.size()];
        for (int m = 0; m < nodes.size(); m++) {
            long[] own = ownPoints(hash, nodes.get(m).id(), GAP_VNODES);
            double[] g = new double[own.length];
            for (int i = 0; i < own.length; i++) {
                g[i] = i == 0 ? HashRing.HASH_SPACE - own[own.length - 1] + own[0] : own[i] - own[i - 1];
            }
            Arrays.sort(g);
            medians[m] = g[g.length / 2] / ((double) HashRing.HASH_SPACE / GAP_VNODES);
        }
        Arrays.sort(medians);
        return new Gaps(p, (double) shortArcs / p, longest / meanArc, (double) same / p,
                medians[medians.length / 2], Balance.exact(ring));
    }

    /** The distinct points {@code hash("id#i")}, {@code i < k}, ascending. */
    static long[] ownPoints(KeyHash hash, String id, int k) {
        long[] pts = new long[k];
        for (int i = 0; i < k; i++) {
            pts[i] = hash.hashUnsigned(id + "#" + i);
        }
        Arrays.sort(pts);
        return Arrays.stream(pts).distinct().toArray();
    }

    void write(Report r) throws IOException {
        r.line("## 2. Why `X#i` needs a mixing hash");
        r.line();
        r.para("Node X's points are the hashes of `X#0`, `X#1`, ...: labels that differ only in their last "
                + "characters. A mixing hash (md5, murmur3) sends them to unrelated places. A weak hash does not: "
                + "**fold31** below is `h = 31*h + b` over the UTF-8 bytes, which is Java's `String.hashCode()` "
                + "for ASCII, the hash a hand-written ring often reaches for (it is defined in the bench code only; "
                + "ringd cannot be configured with it). With it `X#0` ... `X#9` hash to ten consecutive values, "
                + "`X#10` ... `X#99` to values within 31 x 8 + 9 = 257 of each other, and since `node-0001` and "
                + "`node-0002` also differ only in their last character, every node's clumps sit next to every "
                + "other node's. Same exact ownership as section 1, three hashes side by side:");
        Report.Table t = new Report.Table(">nodes", ">points per node", ">md5 max / mean", ">md5 CV",
                ">murmur3 max / mean", ">murmur3 CV", ">fold31 max / mean", ">fold31 CV");
        for (int n : BalanceSection.SIZES) {
            for (int i = 0; i < BalanceSection.VNODES.length; i++) {
                if (BalanceSection.VNODES[i] == 128) {
                    continue;
                }
                Balance a = balance.get("md5").get(n)[i];
                Balance b = balance.get("murmur3").get(n)[i];
                Balance c = balance.get("fold31").get(n)[i];
                t.row(n, BalanceSection.VNODES[i], ratio(a.maxOverMean()), f("%.4f", a.cv()),
                        ratio(b.maxOverMean()), f("%.4f", b.cv()), ratio(c.maxOverMean()), f("%.4f", c.cv()));
            }
        }
        t.writeTo(r);
        r.provenance("exact ownership; max / mean can reach N when one node owns everything.");
        r.image("max / mean of exact ownership for md5, murmur3 and fold31, 50 nodes", "weak-hash-balance");

        r.para(f("The gap statistics show why. For %d nodes x %d points: an **arc** is the stretch between two "
                + "neighbouring points of the ring; with a mixing hash arcs are close to exponential, so about "
                + "1%% of them are shorter than 1%% of the mean arc, the longest is about ln(points) + 0.58 = %.1f "
                + "times the mean, the next point belongs to the same node about 1/N = %s of the time, and the "
                + "median gap between a node's own consecutive points is about ln 2 = 0.69 of the ideal "
                + "2^32 / %d.", GAP_NODES, GAP_VNODES, Math.log(GAP_NODES * GAP_VNODES) + 0.5772,
                pct(1.0 / GAP_NODES), GAP_VNODES));
        Report.Table g = new Report.Table("hash", ">distinct points", ">arcs < 1% of mean arc",
                ">longest arc / mean arc", ">next point same node", ">median own gap / ideal", ">max / mean");
        for (Map.Entry<String, Gaps> e : gaps.entrySet()) {
            Gaps x = e.getValue();
            g.row(e.getKey(), n(x.points()), pct(x.shortArcs()), f("%.1f", x.longestArc()), pct(x.sameOwner()),
                    f("%.2g", x.medianOwnGap()), ratio(x.balance().maxOverMean()));
        }
        g.writeTo(r);
        r.provenance(f("%d nodes x %d points per node, exact (every point and arc of the ring).", GAP_NODES,
                GAP_VNODES));
        Gaps fold = gaps.get("fold31");
        r.para(f("With fold31 a node's points are not spread at all: the median gap between two of them is "
                + "%.2g of what it should be, %s of the arcs are crumbs shorter than 1%% of the mean arc, and "
                + "the longest arc alone is %s of the circle: its owner takes it (max / mean %s of a possible "
                + "%d). More points do not help (the first table: more points, more clumps in the same places), "
                + "and neither would a good hash for the keys, since ownership is over hash values: perfectly "
                + "spread keys still land where the arcs are. The points need the mixing. md5 and murmur3 are "
                + "alike here; murmur3 is several times cheaper to compute (section 4).", fold.medianOwnGap(),
                pct(fold.shortArcs()), pct(fold.longestArc() / fold.points()), ratio(fold.balance().maxOverMean()),
                GAP_NODES));
        r.image("positions of the points of five nodes on the circle, fold31 against md5", "weak-hash-points");
        plot(r);
    }

    private void plot(Report r) throws IOException {
        XYChart c = Charts.xy("Ring of 50 nodes: max / mean of exact ownership", "points per node",
                "max / mean (log)");
        c.getStyler().setXAxisLogarithmic(true);
        c.getStyler().setYAxisLogarithmic(true);
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        double[] x = Arrays.stream(BalanceSection.VNODES).asDoubleStream().toArray();
        for (String h : balance.keySet()) {
            Balance[] b = balance.get(h).get(GAP_NODES);
            Charts.line(c, h, x, Arrays.stream(b).mapToDouble(Balance::maxOverMean).toArray());
        }
        Charts.save(r.plot("weak-hash-balance"), c);

        XYChart[] panels = new XYChart[2];
        String[] names = {"fold31", "md5"};
        for (int p = 0; p < 2; p++) {
            KeyHash hash = hashes.get(names[p]);
            XYChart s = Charts.xy(f("%s: the %d points of each of %d nodes (of %d)", names[p], GAP_VNODES, PLOTTED,
                    GAP_NODES), "position on the circle / 2^32", "node");
            s.getStyler().setXAxisMin(0.0).setXAxisMax(1.0);
            s.getStyler().setYAxisMin(0.0).setYAxisMax(PLOTTED - 1.0);
            s.getStyler().setPlotContentSize(0.85);
            s.getStyler().setLegendVisible(false);
            s.getStyler().setMarkerSize(5);
            s.getStyler().setyAxisTickLabelsFormattingFunction(
                    y -> Math.abs(y - Math.rint(y)) < 1e-6 && Math.rint(y) >= 0 && Math.rint(y) < PLOTTED
                            ? f("node-%04d", (int) Math.rint(y)) : "");
            for (int m = 0; m < PLOTTED; m++) {
                String id = Fixtures.nodes(PLOTTED).get(m).id();
                double[] px = new double[GAP_VNODES];
                double[] py = new double[GAP_VNODES];
                for (int i = 0; i < GAP_VNODES; i++) {
                    px[i] = hash.hashUnsigned(id + "#" + i) / (double) HashRing.HASH_SPACE;
                    py[i] = m;
                }
                Charts.dots(s, id, px, py);
            }
            panels[p] = s;
        }
        Charts.saveStacked(r.plot("weak-hash-points"), panels);
    }
}
