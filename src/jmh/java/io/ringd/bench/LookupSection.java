package io.ringd.bench;

import static io.ringd.bench.Report.f;
import static io.ringd.bench.Report.n;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.style.Styler;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/** Section 4: lookup cost against N, measured with JMH in this run. */
final class LookupSection {

    static final List<String> PLACEMENTS = List.of("ring", "maglev", "rendezvous", "jump");
    static final Map<String, String> LABELS = Map.of("ring", "ring (128 points per node)", "maglev", "Maglev",
            "rendezvous", "HRW", "jump", "jump");

    /**
     * A benchmark point: the median of its measurement iterations, and the
     * fastest and slowest of them. On a shared machine a burst of other work
     * slows a few iterations; the median shrugs them off where the mean
     * (JMH's score) would carry them.
     */
    record Score(double score, double min, double max) {

        static Score of(RunResult rr) {
            List<Double> its = new ArrayList<>();
            for (BenchmarkResult br : rr.getBenchmarkResults()) {
                for (IterationResult ir : br.getIterationResults()) {
                    its.add(ir.getPrimaryResult().getScore());
                }
            }
            Collections.sort(its);
            int n = its.size();
            double median = n % 2 == 1 ? its.get(n / 2) : (its.get(n / 2 - 1) + its.get(n / 2)) / 2;
            return new Score(median, its.get(0), its.get(n - 1));
        }
    }

    /** placement -> nodes -> ns/op. */
    final Map<String, TreeMap<Integer, Score>> scores = new LinkedHashMap<>();
    /** md5 and murmur3 key hash alone, ns/op. */
    final Map<String, Score> hashOnly = new LinkedHashMap<>();
    private String jmhArgs;
    private String loadBefore;
    private String loadAfter;
    private double seconds;

    void compute(Report report) throws RunnerException {
        int wi = report.quick ? 1 : 2;
        int i = report.quick ? 2 : 5;
        TimeValue time = report.quick ? TimeValue.milliseconds(200) : TimeValue.seconds(1);
        String t = report.quick ? "200ms" : "1s";
        jmhArgs = f("-f 1 -wi %d -w %s -i %d -r %s", wi, t, i, t);
        Options options = new OptionsBuilder()
                .include("^" + Pattern.quote(AlgorithmLookupBenchmark.class.getName() + ".routeHash") + "$")
                .include("^" + Pattern.quote(LookupBenchmark.class.getName() + ".hashOnly") + "$")
                .forks(1).warmupIterations(wi).warmupTime(time).measurementIterations(i).measurementTime(time)
                .shouldFailOnError(true).build();
        loadBefore = loadAverage();
        long start = System.nanoTime();
        Collection<RunResult> results = new Runner(options).run();
        seconds = (System.nanoTime() - start) / 1e9;
        loadAfter = loadAverage();
        for (String p : PLACEMENTS) {
            scores.put(p, new TreeMap<>());
        }
        for (RunResult rr : results) {
            String bench = rr.getParams().getBenchmark();
            Score s = Score.of(rr);
            if (bench.endsWith(".hashOnly")) {
                hashOnly.put(rr.getParams().getParam("hash"), s);
            } else {
                scores.get(rr.getParams().getParam("placement"))
                        .put(Integer.parseInt(rr.getParams().getParam("nodes")), s);
            }
        }
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg"), StandardCharsets.UTF_8).split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "unknown";
        }
    }

    /**
     * The N at which HRW becomes slower than the ring: interpolated between
     * the last measured N where it was not (HRW linear in N, the ring flat
     * between two points), or the smallest N measured if HRW is slower there.
     */
    double crossover() {
        TreeMap<Integer, Score> hrw = scores.get("rendezvous");
        TreeMap<Integer, Score> ring = scores.get("ring");
        Integer prev = null;
        for (int n : hrw.keySet()) {
            double d = hrw.get(n).score() - ring.get(n).score();
            if (d > 0) {
                if (prev == null) {
                    return n;
                }
                double d0 = hrw.get(prev).score() - ring.get(prev).score();
                return prev + (n - prev) * (-d0) / (d - d0);
            }
            prev = n;
        }
        return Double.NaN;
    }

    boolean hrwSlowerAtSmallest() {
        TreeMap<Integer, Score> hrw = scores.get("rendezvous");
        int n = hrw.firstKey();
        return hrw.get(n).score() > scores.get("ring").get(n).score();
    }

    /** HRW's cost per node, from its two largest N. */
    double hrwPerNode() {
        TreeMap<Integer, Score> hrw = scores.get("rendezvous");
        int hi = hrw.lastKey();
        int lo = hrw.lowerKey(hi);
        return (hrw.get(hi).score() - hrw.get(lo).score()) / (hi - lo);
    }

    static String ns(Score s) {
        return num(s.score()) + " (" + num(s.min()) + " .. " + num(s.max()) + ")";
    }

    private static String num(double v) {
        return v >= 1000 ? f("%,.0f", v) : v >= 100 ? f("%.0f", v) : f("%.1f", v);
    }

    void write(Report r) throws IOException {
        r.line("## 4. Lookup cost against N");
        r.line();
        r.para("Nanoseconds for one lookup of a key hash (`Placement.routeHash`, the murmur3 hashes of 65,536 "
                + "keys `user:0` ... computed in set-up and cycled), so this is the placement alone; a key's hash "
                + "comes on top (the last table). The ring has 128 points per node (the default); the Maglev "
                + "table has 65,537 entries up to 655 nodes and then the smallest prime of at least 100 entries "
                + "a node (100,003 for 1,000 nodes, 1,000,003 for 10,000); HRW is the library's weighted "
                + "`RendezvousHash` (one `-w / ln(u)` score per node); jump is `JumpHash`. Benchmark "
                + "`AlgorithmLookupBenchmark`, JMH " + jmhArgs + ", run by the same command (" + f("%.0f", seconds)
                + " s). Each cell is the median of the measurement iterations, with the fastest and slowest in "
                + "brackets: on this shared 2-core machine a burst of other work slows a few iterations, which a "
                + "mean would carry and the median does not. N = 2 and 5 are there to find where HRW falls "
                + "behind.");
        List<String> cols = new ArrayList<>(List.of(">N"));
        for (String p : PLACEMENTS) {
            cols.add(">" + LABELS.get(p) + ", ns");
        }
        cols.add(">HRW / ring");
        cols.add(">ring / Maglev");
        Report.Table t = new Report.Table(cols.toArray(new String[0]));
        for (int n : scores.get("ring").keySet()) {
            List<Object> row = new ArrayList<>();
            row.add(n(n));
            for (String p : PLACEMENTS) {
                row.add(ns(scores.get(p).get(n)));
            }
            row.add(f("%.1f", scores.get("rendezvous").get(n).score() / scores.get("ring").get(n).score()));
            row.add(f("%.1f", scores.get("ring").get(n).score() / scores.get("maglev").get(n).score()));
            t.row(row.toArray());
        }
        t.writeTo(r);
        r.provenance("JMH " + jmhArgs + ", one fork per point; load average " + loadBefore + " before and "
                + loadAfter + " after (other work on the machine shows up as a wide range).");
        Report.Table h = new Report.Table("key hash", ">ns per key");
        for (Map.Entry<String, Score> e : hashOnly.entrySet()) {
            h.row(e.getKey(), ns(e.getValue()));
        }
        h.writeTo(r);
        r.provenance("`LookupBenchmark.hashOnly` in the same JMH run: the hash of one key `user:i`.");
        r.image("lookup cost against the number of nodes, log-log", "lookup-cost");

        double x = crossover();
        String where = Double.isNaN(x) ? "at no N measured"
                : hrwSlowerAtSmallest() ? f("already at %d nodes, the smallest N measured", (int) x)
                : f("from about %.0f nodes on (interpolated between the measured N)", Math.ceil(x));
        r.para(f("**HRW's O(N) loses to the ring %s.** Each node costs HRW about %.1f ns (a 64-bit mix and a "
                + "`StrictMath.log` for the weighted score), so at 100 nodes a lookup is already %.0f times the "
                + "ring's and at 10,000 nodes about %,.0f µs. The ring grows with log N and with cache misses "
                + "once its arrays outgrow the caches (1.28 million points at 10,000 nodes). Maglev is a "
                + "modulo and a few array reads, flat in N until its table stops fitting in cache; jump is "
                + "O(ln N) arithmetic with no memory at all, but has no weights and cannot lose a node other "
                + "than the last (section 3).", where, hrwPerNode(),
                scores.get("rendezvous").get(100).score() / scores.get("ring").get(100).score(),
                scores.get("rendezvous").get(scores.get("rendezvous").lastKey()).score() / 1000));
        plot(r);
    }

    private void plot(Report r) throws IOException {
        XYChart c = Charts.xy("Lookup of a key hash, JMH", "nodes N", "ns per lookup (log)");
        c.getStyler().setXAxisLogarithmic(true);
        c.getStyler().setYAxisLogarithmic(true);
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        c.getStyler().setXAxisDecimalPattern("#,###");
        c.getStyler().setYAxisDecimalPattern("#,###.#");
        for (String p : PLACEMENTS) {
            TreeMap<Integer, Score> s = scores.get(p);
            double[] x = s.keySet().stream().mapToDouble(Integer::doubleValue).toArray();
            double[] y = s.values().stream().mapToDouble(Score::score).toArray();
            Charts.line(c, LABELS.get(p), x, y);
        }
        Charts.save(r.plot("lookup-cost"), c);
    }
}
