package io.ringd.bench;

import static io.ringd.bench.Report.f;
import static io.ringd.bench.Report.n;

import java.awt.Color;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Section 6 of docs/algorithms.md, the fleet as the load signal: the plot and
 * the text, from what {@code bench/SlowNode.java} measured
 * (target/slow-node/: facts.properties, seconds.csv, loads.csv). Run by
 * {@code bench/slow-node.sh}; arguments: the harness's output directory, and
 * {@code --docs} to also write docs/algorithms/slow-node.png and put the
 * section into docs/algorithms.md in place of the one there (or at its end).
 */
public final class SlowNodeReport {

    /** The section's heading; bench/algorithms.sh carries everything from it on over. */
    static final String HEADING = "## 6. The fleet as the load signal";
    static final String COMMAND = "bench/slow-node.sh";
    /** Wider than the other plots: time runs along it, the legend beside it. */
    static final int WIDTH = 1000;
    static final Color SLOW_COLOR = new Color(210, 40, 40);
    static final Color[] HEALTHY_COLORS = {new Color(60, 120, 200), new Color(40, 160, 90),
        new Color(150, 90, 190), new Color(120, 120, 120)};

    private final Properties facts = new Properties();
    private final String[] nodes;
    private final String slow;
    private final double c;
    private final double slowOn;
    private final double slowOff;
    private final double base;
    private final Csv seconds;
    private final Csv loads;
    private final List<Over> over = new ArrayList<>();

    /** A CSV of numbers: its header, and its rows (an empty cell is NaN). */
    record Csv(List<String> head, List<double[]> rows) {

        static Csv read(Path file) throws IOException {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            List<String> head = List.of(lines.get(0).split(","));
            List<double[]> rows = new ArrayList<>();
            for (String l : lines.subList(1, lines.size())) {
                String[] cells = l.split(",", -1);
                double[] r = new double[head.size()];
                for (int i = 0; i < r.length; i++) {
                    r[i] = i < cells.length && !cells[i].isEmpty() ? Double.parseDouble(cells[i]) : Double.NaN;
                }
                rows.add(r);
            }
            return new Csv(head, rows);
        }

        double[] column(String name) {
            int i = head.indexOf(name);
            if (i < 0) {
                throw new IllegalStateException("no column " + name + " in " + head);
            }
            return rows.stream().mapToDouble(r -> r[i]).toArray();
        }
    }

    /**
     * An interval of GET /loads reads with the slow node over its bound ({@code until} NaN: to the
     * end), its load and c x mean at the first, its last request before the interval
     * ({@code stopped}) and its first after it ({@code resumed}; NaN: none within the run).
     */
    record Over(double from, double until, double load, double limit, double stopped, double resumed) {
    }

    private SlowNodeReport(Path dir) throws IOException {
        try (Reader r = Files.newBufferedReader(dir.resolve("facts.properties"), StandardCharsets.UTF_8)) {
            facts.load(r);
        }
        nodes = get("nodes").split(",");
        slow = get("slow");
        c = number("bound");
        slowOn = number("slowOnAt");
        slowOff = number("slowOffAt");
        base = number("baseShare");
        seconds = Csv.read(dir.resolve("seconds.csv"));
        loads = Csv.read(dir.resolve("loads.csv"));
        if (!get("slowOverBound").isEmpty()) {
            for (String o : get("slowOverBound").split(";")) {
                double[] v = Arrays.stream(o.split(",")).mapToDouble(Double::parseDouble).toArray();
                over.add(new Over(v[0], v[1], v[2], v[3], v[4], v[5]));
            }
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args.length > 2 || (args.length == 2 && !args[1].equals("--docs"))) {
            throw new IllegalArgumentException("usage: SlowNodeReport DIR [--docs]");
        }
        Path dir = Path.of(args[0]);
        SlowNodeReport report = new SlowNodeReport(dir);
        Machine machine = Machine.here();
        report.plot(dir.resolve("slow-node.png"));
        String section = report.section(machine);
        Files.writeString(dir.resolve("section.md"), section, StandardCharsets.UTF_8);
        System.out.println("[slow-node] " + dir.resolve("slow-node.png") + " and " + dir.resolve("section.md"));
        if (args.length == 2) {
            Path png = Path.of("docs/algorithms/slow-node.png");
            Files.createDirectories(png.getParent());
            Files.copy(dir.resolve("slow-node.png"), png, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Path md = Path.of("docs/algorithms.md");
            String doc = Files.readString(md, StandardCharsets.UTF_8);
            int at = doc.indexOf("\n" + HEADING + "\n");
            doc = (at < 0 ? doc.stripTrailing() + "\n" : doc.substring(0, at)) + "\n" + section;
            Files.writeString(md, doc, StandardCharsets.UTF_8);
            System.out.println("[slow-node] " + png + " and section 6 of " + md);
        }
    }

    // ------------------------------------------------------------------ the plot

    private void plot(Path png) throws IOException {
        double[] t = seconds.column("t");
        double[] mid = Arrays.stream(t).map(x -> x + 0.5).toArray();
        XYChart share = Charts.xy(f("Requests per node, each second (%s slowed by %s ms, shaded)", slow,
                get("delayMs")), "seconds", "share of requests", WIDTH, Charts.HEIGHT);
        share.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        share.getStyler().setYAxisMin(0.0);
        share.getStyler().setYAxisMax(0.5);
        shade(share, 0.5);
        int other = 0;
        for (String id : nodes) {
            XYSeries s = Charts.line(share, id, mid, seconds.column("share_" + id));
            s.setMarker(SeriesMarkers.NONE);
            if (id.equals(slow)) {
                s.setLineColor(SLOW_COLOR);
                s.setLineWidth(3f);
            } else {
                s.setLineColor(HEALTHY_COLORS[other++ % HEALTHY_COLORS.length]);
                s.setLineWidth(1.5f);
            }
        }
        XYChart latency = Charts.xy(f("%s: its load in GET /loads, its bound, the p99 the instances saw", slow),
                "seconds", "ms", WIDTH, Charts.HEIGHT);
        latency.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        double[] lt = loads.column("t");
        double[] load = loads.column("load_" + slow);
        double[] limit = Arrays.stream(loads.column("mean")).map(m -> c * m).toArray();
        double[] p99 = seconds.column("p99ms_" + slow);
        double top = Math.ceil(Math.max(max(load), number("delayMs") * 1.5) / 5) * 5;
        latency.getStyler().setYAxisMin(0.0);
        latency.getStyler().setYAxisMax(top);
        shade(latency, top);
        XYSeries l = Charts.line(latency, f("load: the median of %s followers' reports", get("apps")), lt, load);
        l.setMarker(SeriesMarkers.NONE);
        l.setLineColor(SLOW_COLOR);
        l.setLineWidth(2.5f);
        Charts.reference(latency, f("bound: %s x mean", get("bound")), lt, limit, Color.DARK_GRAY);
        double[] clipped = Arrays.stream(p99).map(v -> Math.min(v, top)).toArray();
        XYSeries seen = Charts.dots(latency, "p99 seen each second (clipped at the top)", positiveX(mid, clipped),
                positiveY(clipped));
        seen.setMarker(SeriesMarkers.CIRCLE);
        seen.setMarkerColor(new Color(30, 90, 200));
        for (XYChart chart : List.of(share, latency)) {
            chart.getStyler().setXAxisMin(0.0);
            chart.getStyler().setXAxisMax((double) Integer.parseInt(get("duration")));
            chart.getStyler().setPlotGridLinesVisible(true);
        }
        Charts.saveStacked(png, share, latency);
    }

    /** The slow period as a filled band up to {@code top}. */
    private void shade(XYChart chart, double top) {
        XYSeries band = chart.addSeries(f("%s slowed", slow), new double[] {slowOn, slowOff},
                new double[] {top, top});
        band.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Area);
        band.setFillColor(new Color(255, 200, 120, 90));
        band.setLineColor(new Color(255, 190, 100));
        band.setMarker(SeriesMarkers.NONE);
    }

    private static double[] positiveX(double[] x, double[] y) {
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < x.length; i++) {
            if (y[i] > 0) {
                out.add(x[i]);
            }
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static double[] positiveY(double[] y) {
        return Arrays.stream(y).filter(v -> v > 0).toArray();
    }

    // ------------------------------------------------------------------ the section

    private String section(Machine m) {
        StringBuilder md = new StringBuilder();
        String delay = get("delayMs");
        int version = Integer.parseInt(get("version"));
        md.append(HEADING).append("\n\n");
        md.append("<!-- Written by bench/slow-node.sh (io.ringd.bench.SlowNodeReport, from what bench/SlowNode.java "
                + "measured): edit the code, not this section. bench/algorithms.sh keeps it as it is. -->\n\n");
        para(md, "With `ringd.load.source=followers` the load that `?bound=c` compares (section 5, docs/ring.md "
                + "section 19) is the fleet's own view of each node: the median of the p99 latencies that the "
                + "services following the ring report for it (`RingClient.recordLatency`, docs/client.md; "
                + "docs/ring.md section 23). A node that slows down sheds its keys to the next node of each key's "
                + "preference list before anyone removes it, and membership never changes. This section measures "
                + "that against real memcached servers, one of which is made slow for a while, with one command "
                + "on the machine below:");
        md.append("```sh\n").append(COMMAND).append(" --docs   # about 3 minutes, loopback only; needs Debian's "
                + "memcached (installed when missing)\n").append(COMMAND)
                .append("          # the same into target/slow-node/ only\n```\n\n");
        para(md, f("**The set-up.** Five memcached servers (`memcached -l 127.0.0.1 -U 0 -m 64 -t 1`), each behind "
                + "a forwarder of `bench/DelayProxy.java`, so that every node's path has the same hop (only %s's "
                + "is ever delayed); ringd from target/ringd.jar with `--ringd.store=memory "
                + "--ringd.load.source=followers --ringd.followers.ttl=10s`, the nodes %s (weight 1, 128 points "
                + "each) added in one change (version %d). The harness `bench/SlowNode.java` runs %s application "
                + "instances, each a `RingClient` reporting as a follower (`followerId(\"app-1\")` ..., "
                + "`reportInterval(Duration.ofMillis(%s))`) with %s threads: %s requests a second in all, over %s "
                + "keys drawn uniformly. Each request asks `GET /route/{key}?bound=%s` (HTTP/1.1, a keep-alive "
                + "connection per thread), then does a memcached `get` on the node answered (and a `set` on a "
                + "miss) over the text protocol, and records the time of each memcached operation with "
                + "`recordLatency(node, nanos)`. The load starts %s s before time 0 to warm up the JVMs; those "
                + "requests are not recorded. The base is t = %s s until the slow-down: before, the clients' "
                + "windows still hold their first seconds, whose p99s come from few samples. From t = %s s to "
                + "t = %s s, %s's forwarder holds each of its answers %s ms; the run ends at t = %s s. The "
                + "harness runs on target/ringd-client.jar and the Jackson jars it needs (the Spring Boot jar "
                + "cannot be a class path: its classes sit under BOOT-INF/classes).", slow,
                String.join(", ", nodes), version, get("apps"), get("reportMs"),
                get("workers"), n(Long.parseLong(get("rate"))), n(Long.parseLong(get("keys"))), get("bound"),
                get("jit"), get("warm"), get("slowFrom"), get("slowUntil"), slow, delay, get("duration")));
        Report.Table machine = new Report.Table("", "");
        machine.row("command", "`" + COMMAND + " --docs`");
        machine.row("cores (`nproc`)", m.nproc());
        machine.row("CPU (`/proc/cpuinfo` model name)", m.cpu());
        machine.row("memory", m.memory() + ", a virtual machine shared with other work");
        machine.row("`java -version`", String.join("<br>", m.javaVersion()));
        machine.row("load average (1, 5, 15 min)", get("loadAverageBefore") + " before the run, "
                + get("loadAverageAfter") + " after it (other work on the machine included)");
        String[] commit = get("commit").split(" ", 2);
        machine.row("commit", "`" + commit[0] + "`" + (commit.length > 1 ? " " + commit[1] : "") + ", "
                + get("date"));
        table(md, machine);
        md.append("![share of requests per node each second, the slow period shaded, and the slow node's load and "
                + "p99](algorithms/slow-node.png)\n\n");

        Over first = firstShed();
        Report.Table t = new Report.Table("", "measured");
        boolean unchanged = Boolean.parseBoolean(get("membershipUnchanged"));
        t.row("membership", unchanged
                ? f("**unchanged**: version %d in all %s route answers and all %s reads of `GET /loads`, the same "
                        + "fingerprint at the end", version, n(Long.parseLong(get("requests"))),
                        get("loadsReads"))
                : f("**changed**: %s route answers at another version; `GET /loads` all at version %d: %s; "
                        + "version at the end %s", get("routeAnswersOtherVersion"), version,
                        get("loadsVersionsSame"), get("versionAfter")));
        t.row("requests", f("%s in %s s (%s a second on average, at least %s in any second after the first; %s "
                + "slots skipped by threads more than 100 ms late, %s failed); `GET /route` p99 %s ms",
                n(Long.parseLong(get("requests"))), get("duration"), get("requestsPerSecondMean"),
                get("requestsPerSecondMin"), get("lateSlotsSkipped"), get("failedRequests"), get("routeP99Ms")));
        t.row(slow + "'s share of requests", f("%s at base (t = %s to %s s; it owns %s of the ring), %s while "
                + "slow (from the first second below half its base until the recovery)", pct(base), get("warm"),
                get("slowFrom"), pct(number("ownership." + slow)), pct(number("shareWhileSlow"))));
        t.row("memcached p99 at base, as the instances saw it", p99s());
        t.row("signal", first == null ? "never over its bound"
                : f("over its bound %.2f s after the slow-down (its load %.2f ms, c x mean %.2f ms: the first read "
                        + "of `GET /loads` over)", first.from() - slowOn, first.load(), first.limit()));
        t.row("moved away", f("**%s keys** left %s after it slowed: %s of the %s keys it owns, %s of them to the "
                + "second node of their preference list (%s), and %s keys of other nodes that bounded routing had "
                + "put on it; its share below half its base **%s s** after the slow-down", n(count("keysMovedAway")),
                slow, n(count("keysMovedAwayOwn")), n(count("keysOfSlowNode")),
                n(count("keysMovedAwayToSecondChoice")), awayTo(),
                n(count("keysMovedAway") - count("keysMovedAwayOwn")), get("belowHalfAfter")));
        t.row("back while still slow", f("%s moves to %s between the slow-down and the recovery",
                n(count("movesBackWhileSlow")), slow));
        t.row("moved back", get("firstBackAfterRecovery").equals("never") ? "none within the run"
                : f("**%s keys** (%s of them its own) after the recovery, the first %s s after it; its share within "
                        + "10 %% of its base %s (a second's share of %s requests varies by about %.1f points, one "
                        + "standard deviation, so a second outside 10 %% now and then is chance)",
                        n(count("keysMovedBackAfterRecovery")), n(count("keysMovedBackAfterRecoveryOwn")),
                        f("%.1f", number("firstBackAfterRecovery")), within(), n(count("rate")),
                        100 * Math.sqrt(base * (1 - base) / count("rate"))));
        t.row("at the end", f("%s of %s's %s keys on it, %s elsewhere (each key's node at its last request)",
                n(count("keysOfSlowNodeOnItAtTheEnd")), slow, n(count("keysOfSlowNode")),
                n(count("keysOfSlowNodeElsewhereAtTheEnd"))));
        t.row("between healthy nodes", f("%s moves of %s keys (%s before the slow-down, %s while slow, %s after); "
                + "a healthy node over its bound in %s of the %s x %d node readings of `GET /loads`",
                n(count("movesLateral")), n(count("keysMovedLateral")), n(count("movesLateralBaseline")),
                n(count("movesLateralWhileSlow")), n(count("movesLateralAfter")),
                n(count("healthyOverBoundReads")), get("loadsReads"), nodes.length - 1));
        table(md, t);
        md.append(f("<sub>`%s` on %s; load average %s before, %s after; one run, not an average: the times and "
                + "counts vary with the machine's other work.</sub>\n\n", COMMAND, m.shortDescription(),
                get("loadAverageBefore"), get("loadAverageAfter")));

        md.append(f("When %s was over its bound (each interval of `GET /loads` reads, every 250 ms, with its load "
                + "above c x mean):\n\n", slow));
        Report.Table o = new Report.Table(">over from (s)", ">until (s)", ">its load then (ms)",
                ">c x mean then (ms)", ">its requests stopped (s)", ">and resumed (s)", slow + " at 'until'");
        for (Over x : over) {
            boolean ends = !Double.isNaN(x.until());
            o.row(f("%.2f", x.from()), ends ? f("%.2f", x.until()) : "the end", f("%.2f", x.load()),
                    f("%.2f", x.limit()), Double.isNaN(x.stopped()) ? "-" : f("%.2f", x.stopped()),
                    Double.isNaN(x.resumed()) ? "not within the run" : f("%.2f", x.resumed()),
                    !ends ? "-" : x.until() < slowOn ? "not slowed yet" : x.until() < slowOff ? "still slow"
                            : "recovered");
        }
        table(md, o);

        why(md, first);
        return md.toString();
    }

    private void why(StringBuilder md, Over first) {
        String delay = get("delayMs");
        double slowRate = base * Double.parseDouble(get("rate"));
        para(md, f("**Away within seconds.** A follower's `latencyMs` for a node is the p99 of the operations it "
                + "recorded to it over the last 20 to 30 s (the client's window: three buckets of 10 s). Once more "
                + "than 1 %% of that window is slow (at about %.0f requests a second to %s, a fraction of a second "
                + "of slow answers) the p99 is the slow one; the follower sends it with its next report (every "
                + "%s ms here), the server works the medians out again every 500 ms, and the median of three "
                + "followers turns when the second one has reported. %s then is far over its bound (%s ms added "
                + "to every answer%s), so every key it owns is answered by the next node of its preference list, "
                + "spread over the four others as the ring's arcs fall.", slowRate, slow, get("reportMs"), slow,
                delay, first == null ? "" : f("; at the first read over, its load %.2f ms against c x mean %.2f ms",
                        first.load(), first.limit())));
        List<Over> whileSlow = over.stream().filter(x -> !Double.isNaN(x.until()) && x.until() >= slowOn
                && x.until() < slowOff).toList();
        List<Over> afterRecovery = over.stream().filter(x -> !Double.isNaN(x.until()) && x.until() >= slowOff)
                .toList();
        StringBuilder back = new StringBuilder();
        double notice = number("reportMs") / 1000 + 0.5;
        double perFollowerRate = slowRate / Integer.parseInt(get("apps"));
        back.append(f("**Back to be measured again.** A node over its bound gets no requests at all, so no "
                + "follower records a sample of it. A follower names a node in its reports only while it "
                + "measures it: at least 20 samples in its window, the newest at most 5 s old (`LatencyWindow`). "
                + "So 5 s after its last request the followers stop naming it (at their next reports, up to %s ms "
                + "later), the server's next refresh (up to 500 ms) gives it the mean of the others as its load "
                + "(docs/ring.md section 23), which is within any bound, and its keys come back: 5 to %.1f s after "
                + "its requests stopped. The first sample after the gap starts each follower's window afresh, so "
                + "the node is judged by how it answers now, not by the samples that had it shed: still slow, its "
                + "p99 is the slow one as soon as a follower holds 20 samples of it (a fraction of a second at "
                + "about %.0f requests a second each), and it is shed again at the next reports; recovered, it "
                + "keeps its keys.", get("reportMs"), 5 + notice, perFollowerRate));
        if (!whileSlow.isEmpty()) {
            double gaps = 0;
            double slowServed = 0;
            int probes = 0;
            for (Over w : whileSlow) {
                gaps += w.resumed() - w.stopped();
                double next = nextStopped(w);
                if (!Double.isNaN(next)) {
                    slowServed += Math.min(next, slowOff) - w.resumed();
                    probes++;
                }
            }
            back.append(f(" While %s was slow its keys came back to it %d times (the rows still slow above), on "
                    + "average %.1f s after its requests had stopped", slow, whileSlow.size(),
                    gaps / whileSlow.size()));
            if (probes > 0) {
                back.append(f(", and each time it was shed again %.1f s after they resumed on average: its keys' "
                        + "callers got slow answers for %.1f of the %.0f s it was slow (%.0f %%), where without "
                        + "the load signal they would have for all %.0f", slowServed / probes, slowServed,
                        slowOff - slowOn, 100 * slowServed / (slowOff - slowOn), slowOff - slowOn));
            }
            back.append('.');
        }
        if (!afterRecovery.isEmpty()) {
            Over a = afterRecovery.get(0);
            back.append(f(" After the recovery at t = %.0f s its keys came back at t = %.1f s: %.1f s after the "
                    + "recovery, %.1f s after its requests had stopped at t = %.1f s (the time of the last "
                    + "shedding, not of the recovery, sets the clock).", slowOff, a.resumed(),
                    a.resumed() - slowOff, a.resumed() - a.stopped(), a.stopped()));
        } else {
            back.append(f(" After the recovery at t = %.0f s it did not come back within the run.", slowOff));
        }
        para(md, back.toString());
        List<Over> again = over.stream().filter(x -> x.from() > slowOff).toList();
        if (!again.isEmpty()) {
            Over g = again.get(0);
            double[] t = seconds.column("t");
            double[] route = seconds.column("route_p99ms");
            int second = (int) Math.floor(g.stopped());
            double perFollower = slowRate / Integer.parseInt(get("apps"));
            double routeThen = second >= 0 && second < route.length ? route[second] : Double.NaN;
            List<Double> baseRoute = new ArrayList<>();
            for (int i = 0; i < t.length; i++) {
                if (t[i] >= number("warm") && t[i] < number("slowFrom")) {
                    baseRoute.add(route[i]);
                }
            }
            double baseMedian = baseRoute.stream().mapToDouble(Double::doubleValue).sorted()
                    .skip(baseRoute.size() / 2).findFirst().orElse(Double.NaN);
            para(md, f("**Shed again, recovered.** When a node comes back its window starts afresh: its first "
                    + "reports give the p99 of a second or so of samples (about %.0f a follower), where the "
                    + "others' give that of 20 to 30 s (about %s), so whatever slows its first second weighs 20 "
                    + "to 30 times as much in its p99 as in theirs. At t = %.2f s, with %s recovered and back for a "
                    + "second, its load was %.2f ms against a bound of %.2f ms (%.2f times the mean), and it was "
                    + "shed until it was measured again%s. %s: `GET /route`'s p99 was %.2f ms in it, %.2f ms in "
                    + "the median second at base (this machine was shared with other work, load average %s after "
                    + "the run).", perFollower, n(Math.round(perFollower * 25)), g.from(), slow, g.load(), g.limit(),
                    g.load() / (g.limit() / c), Double.isNaN(g.resumed()) ? " (not within the run)"
                            : f(", %.1f s later", g.resumed() - g.stopped()),
                    routeThen > 1.3 * baseMedian ? "That second was slower for every request"
                            : "Other requests were not much slower in that second", routeThen, baseMedian,
                    get("loadAverageAfter")));
        }
        double[] p = new double[nodes.length];
        double mean = 0;
        for (int i = 0; i < nodes.length; i++) {
            p[i] = number("baselineP99Ms." + nodes[i]);
            mean += p[i] / nodes.length;
        }
        double spread = max(p) / mean;
        double[] peak = healthyPeak();
        String peakText = peak[2] < 0 ? "" : f("the highest a healthy node's load came was %.2f times the mean "
                + "(%s at t = %.1f s), against the bound's %s", peak[0], nodes[(int) peak[2]], peak[1], get("bound"));
        if (count("movesLateral") == 0) {
            para(md, f("**Between healthy nodes** no key moved: no healthy node crossed its bound in any of the %s "
                    + "x %d node readings of `GET /loads`; %s. The margin is the noise of p99s: at base the p99s of "
                    + "five identical servers ran from %.2f to %.2f ms, and a healthy node whose window catches a "
                    + "long enough pause of the machine crosses a bound of %s and is shed like a slow one, until "
                    + "it is measured again 5 s or so later.", get("loadsReads"), nodes.length - 1,
                    peakText, min(p), max(p), get("bound")));
        } else {
            para(md, f("**Between healthy nodes.** %s moves of %s keys went between nodes that were never slowed. "
                    + "They are healthy nodes over their own bound (in %s of the %s x %d node readings of "
                    + "`GET /loads`; %s): c = %s compares p99s, at base the p99s of five identical servers ran "
                    + "from %.2f to %.2f ms, and a node whose window caught a pause of the machine crossed the "
                    + "bound and was shed like a slow one, until it was measured again 5 s or so later.",
                    n(count("movesLateral")), n(count("keysMovedLateral")), n(count("healthyOverBoundReads")),
                    get("loadsReads"), nodes.length - 1, peakText, get("bound"), min(p), max(p)));
        }
        md.append("**What to set.**\n\n");
        md.append(f("- **The report interval** (`RingClient.builder(url).reportInterval(...)`) is how fast the "
                + "fleet reacts: a node is shed about one interval plus 0.5 s (the server's refresh) after its p99 "
                + "turns, with the interval's default of 20 s up to about 20 s. %s ms here; reports are small (a "
                + "version, a fingerprint and a number a node), and a ring takes %s a second "
                + "(`ringd.followers.report-rate`).\n", get("reportMs"), n(5000)));
        md.append("- **`ringd.followers.ttl`** decides how long a follower that stopped reporting (a crashed or "
                + "partitioned instance) keeps its last latencies in the medians: a few report intervals (10 s "
                + "here with reports every second), not the default 60 s, when the reports are the loads.\n");
        double fresh = again.isEmpty() ? Double.NaN : again.get(0).load() / (again.get(0).limit() / c);
        md.append(f("- **The bound c** for latencies must sit above the noise of healthy p99s (here a healthy "
                + "node's load reached %.2f times the mean)%s, not at section 5's 1.3, which is sized for the "
                + "ring's imbalance of counts, and below the number of nodes: the mean counts the slow node "
                + "too, so one node of N can reach at most N times it. %s ms added here made %s %.1f times the "
                + "mean, so a c of 2 would still shed it, with far more room for noise (`BOUND=2 %s` measures "
                + "it).\n", peak[0], Double.isNaN(fresh) ? ""
                        : f(" and above the p99 of a node's first reports after it comes back (%.2f times the mean "
                                + "at t = %.2f s here)", fresh, again.get(0).from()), get("delayMs"), slow,
                first == null ? Double.NaN : first.load() / (first.limit() / c), COMMAND));
        md.append(f("- **The recovery** runs on the client's clock, not on a probe of ringd's own (ringd never "
                + "changes membership or health by itself): a follower stops naming a node 5 s after its last "
                + "sample of it (`LatencyWindow.STALE_NANOS`), so a shed node is measured again about every "
                + "5 s plus a report interval and a refresh (%.1f s here), a recovered one keeps its keys from "
                + "its next such return, and one that stays slow costs its keys' callers slow answers for "
                + "about a report interval or two each time. A shorter report interval shortens both.\n\n",
                5 + notice));
    }

    // ------------------------------------------------------------------ helpers

    /** When the slow node's requests stopped again after {@code w} ended: NaN if never within the run. */
    private double nextStopped(Over w) {
        for (Over x : over) {
            if (x.from() > w.until()) {
                return x.stopped();
            }
        }
        return Double.NaN;
    }

    /** The highest load of a node never slowed over the mean, in any read of GET /loads, and when. */
    private double[] healthyPeak() {
        double[] t = loads.column("t");
        double[] mean = loads.column("mean");
        double[] peak = {0, Double.NaN, -1};
        for (int j = 0; j < nodes.length; j++) {
            if (nodes[j].equals(slow)) {
                continue;
            }
            double[] load = loads.column("load_" + nodes[j]);
            for (int i = 0; i < t.length; i++) {
                if (mean[i] > 0 && load[i] / mean[i] > peak[0]) {
                    peak = new double[] {load[i] / mean[i], t[i], j};
                }
            }
        }
        return peak;
    }


    private Over firstShed() {
        return over.stream().filter(x -> x.from() >= slowOn).findFirst().orElse(null);
    }

    private String within() {
        String first = get("withinTenPercentAfter");
        String end = get("withinTenPercentToTheEndAfter");
        if (first.equals("never")) {
            return "at no whole second before the end of the run";
        }
        return f("first %s s after the recovery", first) + (end.equals("never") ? ", not to the end of the run"
                : end.equals(first) ? " and to the end of the run" : f(", and to the end from %s s after", end));
    }

    private String awayTo() {
        StringBuilder b = new StringBuilder();
        for (String id : nodes) {
            if (facts.containsKey("keysMovedAwayTo." + id)) {
                b.append(b.length() == 0 ? "" : ", ").append(id).append(' ')
                        .append(n(count("keysMovedAwayTo." + id)));
            }
        }
        return b.toString();
    }

    private String p99s() {
        StringBuilder b = new StringBuilder();
        for (String id : nodes) {
            b.append(b.length() == 0 ? "" : ", ").append(id).append(' ')
                    .append(f("%.2f ms", number("baselineP99Ms." + id)));
        }
        return b.toString();
    }

    private String get(String key) {
        String v = facts.getProperty(key);
        if (v == null) {
            throw new IllegalStateException("facts.properties has no " + key);
        }
        return v;
    }

    private double number(String key) {
        String v = get(key);
        return v.equals("never") ? Double.NaN : Double.parseDouble(v);
    }

    private long count(String key) {
        return Long.parseLong(get(key));
    }

    private static String pct(double share) {
        return f("%.1f%%", 100 * share);
    }

    private static void para(StringBuilder md, String text) {
        md.append(text).append("\n\n");
    }

    private static void table(StringBuilder md, Report.Table t) {
        md.append(t.markdown());
    }

    private static double max(double[] v) {
        return Arrays.stream(v).filter(x -> !Double.isNaN(x)).max().orElse(Double.NaN);
    }

    private static double min(double[] v) {
        return Arrays.stream(v).filter(x -> x > 0).min().orElse(Double.NaN);
    }
}
