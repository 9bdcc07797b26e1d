package io.ringd.bench;

import static io.ringd.bench.Report.f;
import static io.ringd.bench.Report.n;
import static io.ringd.bench.Report.pct;

import io.ringd.ring.HashRing;
import io.ringd.ring.JumpHash;
import io.ringd.ring.KeyHashes;
import io.ringd.ring.Node;
import io.ringd.ring.Placement;
import io.ringd.ring.RendezvousHash;
import io.ringd.ring.RingConfig;
import io.ringd.ring.RingDiff;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.knowm.xchart.CategoryChart;

/** Section 3: what moves when a node joins or leaves, against the ideal. */
final class MovementSection {

    /**
     * One line of the table: the mean moved share over the trials, its
     * spread, and the part moved between nodes that neither joined nor left.
     */
    record Move(String placement, int n, String change, double ideal, double mean, double min, double max,
            double extra, String how) {

        double ratio() {
            return mean / ideal;
        }
    }

    final List<Move> moves = new ArrayList<>();

    void compute(Report report, long[] keyHashes, Map<Integer, String[]> hrwBefore) {
        for (int n : BalanceSection.SIZES) {
            List<Node> nodes = Fixtures.nodes(n);
            exact("ring (md5, 128)", report, nodes, RingConfig.of("md5", Fixtures.VNODES));
            exact("ketama", report, nodes, RingConfig.ketama());
            exact("Maglev, M = 65,537", report, nodes, RingConfig.maglev(KeyHashes.md5(), Placements.DEFAULT_TABLE));
            if (n == 500) {
                exact("Maglev, M = " + n(BalanceSection.LARGE_TABLE), report, nodes,
                        RingConfig.maglev(KeyHashes.md5(), BalanceSection.LARGE_TABLE));
            }
            String how = f("%s keys", n(keyHashes.length));
            String[] before = hrwBefore.get(n);
            List<Node> joined = new ArrayList<>(nodes);
            joined.add(Node.of("new-00", 1));
            moves.add(sampled("HRW", n, "join", 1.0 / (n + 1), before,
                    RendezvousHash.of(KeyHashes.md5(), joined), keyHashes, "new-00", how));
            Node leaving = nodes.get(n / 2);
            List<Node> left = new ArrayList<>(nodes);
            left.remove(leaving);
            moves.add(sampled("HRW", n, "leave", 1.0 / n, before, RendezvousHash.of(KeyHashes.md5(), left),
                    keyHashes, leaving.id(), how));

            String[] jumpBefore = Balance.assign(JumpHash.of(KeyHashes.md5(), Placements.ids(nodes)), keyHashes);
            moves.add(sampled("jump", n, "join (last bucket)", 1.0 / (n + 1), jumpBefore,
                    JumpHash.of(KeyHashes.md5(), Placements.ids(joined)), keyHashes, "new-00", how));
            List<Node> lastGone = nodes.subList(0, n - 1);
            moves.add(sampled("jump", n, "leave (last bucket)", 1.0 / n, jumpBefore,
                    JumpHash.of(KeyHashes.md5(), Placements.ids(lastGone)), keyHashes, nodes.get(n - 1).id(), how));
            moves.add(sampled("jump", n, "leave (middle bucket)", 1.0 / n, jumpBefore,
                    JumpHash.of(KeyHashes.md5(), Placements.ids(left)), keyHashes, leaving.id(), how));
        }
    }

    /** Joins of new nodes and leaves of nodes spread over the id order, each diffed exactly. */
    private void exact(String name, Report report, List<Node> nodes, RingConfig config) {
        int n = nodes.size();
        HashRing ring = HashRing.of(config, 1, nodes);
        double[] join = new double[report.changes];
        double[] joinExtra = new double[report.changes];
        for (int t = 0; t < report.changes; t++) {
            String id = f("new-%02d", t);
            RingDiff d = HashRing.diff(ring, ring.put(Node.of(id, 1)), 0);
            join[t] = d.movedShare();
            joinExtra[t] = between(d, id);
        }
        moves.add(summarize(name, n, "join", 1.0 / (n + 1), join, joinExtra, "exact, " + report.changes + " joins"));
        int leaves = Math.min(report.changes, n);
        double[] leave = new double[leaves];
        double[] leaveExtra = new double[leaves];
        for (int t = 0; t < leaves; t++) {
            String id = nodes.get((int) ((2L * t + 1) * n / (2L * leaves))).id();
            RingDiff d = HashRing.diff(ring, ring.remove(id), 0);
            leave[t] = d.movedShare();
            leaveExtra[t] = between(d, id);
        }
        moves.add(summarize(name, n, "leave", 1.0 / n, leave, leaveExtra, "exact, " + leaves + " leaves"));
    }

    /** The share of the hash space that moved between two nodes other than {@code changed}. */
    private static double between(RingDiff d, String changed) {
        long c = 0;
        for (RingDiff.Flow flow : d.flows()) {
            if (!changed.equals(flow.from()) && !changed.equals(flow.to())) {
                c += flow.count();
            }
        }
        return c / (double) HashRing.HASH_SPACE;
    }

    private static Move summarize(String name, int n, String change, double ideal, double[] moved, double[] extra,
            String how) {
        double sum = 0;
        double ex = 0;
        double min = Double.MAX_VALUE;
        double max = 0;
        for (int i = 0; i < moved.length; i++) {
            sum += moved[i];
            ex += extra[i];
            min = Math.min(min, moved[i]);
            max = Math.max(max, moved[i]);
        }
        return new Move(name, n, change, ideal, sum / moved.length, min, max, ex / moved.length, how);
    }

    private static Move sampled(String name, int n, String change, double ideal, String[] before, Placement after,
            long[] keyHashes, String changed, String how) {
        String[] now = Balance.assign(after, keyHashes);
        long moved = 0;
        long extra = 0;
        for (int k = 0; k < now.length; k++) {
            if (!now[k].equals(before[k])) {
                moved++;
                if (!now[k].equals(changed) && !before[k].equals(changed)) {
                    extra++;
                }
            }
        }
        double share = (double) moved / now.length;
        return new Move(name, n, change, ideal, share, share, share, (double) extra / now.length, how);
    }

    Move find(String placement, int n, String change) {
        return moves.stream().filter(m -> m.placement().equals(placement) && m.n() == n && m.change().equals(change))
                .findFirst().orElseThrow();
    }

    void write(Report r) throws IOException {
        r.line("## 3. Movement when a node joins or leaves");
        r.line();
        r.para("The share of keys that change owner when one node joins N equal nodes (ideal: the newcomer's fair "
                + "share, 1/(N+1)) or one of them leaves (ideal: its share, 1/N). For the ring, ketama and Maglev "
                + "it is exact: `HashRing.diff` counts the hash values whose owner changes, and its flows say "
                + "which moved **between nodes that stay** (neither from the node that left nor to the one that "
                + "joined): movement a minimal placement never makes. The figure is the mean over " + r.changes
                + " joins (nodes `new-00` ...) and " + r.changes + " leaves (nodes spread over the ids; all of "
                + "them for 5 nodes), with the smallest and largest. HRW and jump have no diff: the same keys as "
                + "section 1 are routed before and after one change, so their figures carry sampling noise of "
                + "about sqrt(N/keys) relative (2% at 500 nodes). Jump can only lose its last bucket cheaply; "
                + "removing a middle node renumbers every bucket after it.");
        Report.Table t = new Report.Table("placement", ">N", "change", ">ideal", ">moved (mean)", ">moved / ideal",
                ">min .. max", ">between nodes that stay", "measured");
        for (Move m : moves) {
            t.row(m.placement(), m.n(), m.change(), pct(m.ideal()), pct(m.mean()), f("%.3f", m.ratio()),
                    m.min() == m.max() ? "-" : pct(m.min()) + " .. " + pct(m.max()), pct(m.extra()), m.how());
        }
        t.writeTo(r);
        r.provenance("ring, ketama and Maglev exact (`HashRing.diff`); HRW and jump by keys (md5).");
        r.image("moved over ideal for each placement, join and leave", "movement");

        r.line("### What Maglev's extra disruption costs");
        r.line();
        Report.Table c = new Report.Table(">N", "change", ">ideal", ">Maglev moves", ">of which between nodes "
                + "that stay", ">extra keys per million", ">extra over ideal");
        for (Move m : moves) {
            if (m.placement().startsWith("Maglev")) {
                c.row(m.n() + (m.placement().endsWith("65,537") ? "" : " (M = " + n(BalanceSection.LARGE_TABLE)
                        + ")"), m.change(), pct(m.ideal()), pct(m.mean()), pct(m.extra()),
                        n(Math.round(m.extra() * 1e6)), pct(m.extra() / m.ideal()));
            }
        }
        c.writeTo(r);
        r.provenance("exact (`HashRing.diff` flows).");
        Move m50 = find("Maglev, M = 65,537", 50, "join");
        Move m500 = find("Maglev, M = 65,537", 500, "join");
        Move big500 = find("Maglev, M = " + n(BalanceSection.LARGE_TABLE), 500, "join");
        Move r50 = find("ring (md5, 128)", 50, "join");
        r.para(f("A Maglev table is filled afresh on every change, and some entries change hands between nodes "
                + "that stay: at 50 nodes a join moves %s of the keys instead of %s, %s keys per million more "
                + "than needed (%s over the ideal). Those keys lose their cache, or are copied, for nothing. The "
                + "extra grows as the entries per node shrink: at 500 nodes the default table (131 entries a "
                + "node) moves %.1f times the ideal on a join, and the table of %s entries (1,311 a node) still "
                + "%.1f times. So a Maglev table for hundreds of nodes wants far more than the paper's 100 "
                + "entries a node, and even then it pays in movement for its balance and speed. The ring never "
                + "moves keys between nodes that stay: every value it moves goes to the new node or comes from "
                + "the leaving one, and its mean is the ideal; what varies is the changed node's share "
                + "(min .. max), the balance of section 1.",
                pct(m50.mean()), pct(m50.ideal()), n(Math.round(m50.extra() * 1e6)), pct(m50.extra() / m50.ideal()),
                m500.ratio(), n(BalanceSection.LARGE_TABLE), big500.ratio())
                + (r50.extra() == 0 ? "" : " (In this run the ring did move some between nodes that stay: see the "
                + "table.)"));
        plot(r);
    }

    private void plot(Report r) throws IOException {
        List<String> names = List.of("ring (md5, 128)", "ketama", "Maglev, M = 65,537", "HRW", "jump");
        List<String> labels = List.of("ring (128)", "ketama", "Maglev (65,537)", "HRW", "jump");
        CategoryChart join = Charts.bars("One node joins N", "placement", "moved / ideal");
        CategoryChart leave = Charts.bars("One node leaves (jump: the last bucket)", "placement", "moved / ideal");
        for (int n : BalanceSection.SIZES) {
            List<Double> j = new ArrayList<>();
            List<Double> l = new ArrayList<>();
            for (String p : names) {
                j.add(find(p, n, p.equals("jump") ? "join (last bucket)" : "join").ratio());
                l.add(find(p, n, p.equals("jump") ? "leave (last bucket)" : "leave").ratio());
            }
            join.addSeries(n + " nodes", labels, j);
            leave.addSeries(n + " nodes", labels, l);
        }
        join.getStyler().setYAxisMin(0.0);
        leave.getStyler().setYAxisMin(0.0);
        Charts.save(r.plot("movement"), join, leave);
    }
}
