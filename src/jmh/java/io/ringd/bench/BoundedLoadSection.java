package io.ringd.bench;

import static io.ringd.bench.Report.f;

import io.ringd.lookup.BoundedLoadSimulation;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.style.Styler;

/**
 * Section 5: bounded loads, from {@code io.ringd.lookup.BoundedLoadSimulation}
 * (test code), run here as it is and its table read back.
 */
final class BoundedLoadSection {

    /** The simulation's arguments: nodes, keys, requests, seed (its defaults). */
    static final String[] ARGS = {"50", "100000", "1000000", "42"};
    /** Requests off their primary under uniform traffic that count as leaving it alone. */
    static final double UNTOUCHED = 0.0005;

    record Row(String traffic, String bound, double maxOverMean, double meanSkipped, double leftPrimary) {

        double c() {
            return bound.equals("none") ? Double.NaN : Double.parseDouble(bound);
        }
    }

    final List<Row> rows = new ArrayList<>();
    final List<String> preamble = new ArrayList<>();

    void compute() {
        PrintStream out = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (PrintStream capture = new PrintStream(buffer, true, StandardCharsets.UTF_8)) {
            System.setOut(capture);
            BoundedLoadSimulation.main(ARGS);
        } finally {
            System.setOut(out);
        }
        for (String line : buffer.toString(StandardCharsets.UTF_8).split("\n")) {
            if (line.startsWith("| uniform") || line.startsWith("| zipf")) {
                String[] c = line.split("\\|");
                rows.add(new Row(c[1].trim(), c[2].trim(), Double.parseDouble(c[3].trim()),
                        Double.parseDouble(c[4].trim()), Double.parseDouble(c[5].trim().replace("%", "")) / 100));
            } else if (!line.isBlank() && !line.startsWith("|")) {
                preamble.add(line.trim());
            }
        }
        if (rows.size() != 22) {
            throw new IllegalStateException("BoundedLoadSimulation printed " + rows.size() + " rows, expected 22:\n"
                    + buffer.toString(StandardCharsets.UTF_8));
        }
    }

    Row row(String traffic, String bound) {
        return rows.stream().filter(r -> r.traffic().equals(traffic) && r.bound().equals(bound)).findFirst()
                .orElseThrow();
    }

    /** The smallest c that leaves uniform traffic alone (under {@link #UNTOUCHED} off its primary). */
    Row recommended() {
        for (Row r : rows) {
            if (r.traffic().equals("uniform") && !r.bound().equals("none") && r.leftPrimary() < UNTOUCHED) {
                return r;
            }
        }
        return row("uniform", "2.0");
    }

    void write(Report r) throws IOException {
        r.line("## 5. Bounded loads: choosing c");
        r.line();
        r.para("`GET /route/{key}?bound=c` walks the key's preference list to the first node whose load is at most "
                + "c times the mean (Mirrokni, Thorup and Zadimoghaddam). The figures come from the existing "
                + "simulation `io.ringd.lookup.BoundedLoadSimulation` (run here in-process with its defaults, "
                + "arguments `" + String.join(" ", ARGS) + "`), which sends a stream of requests through the "
                + "service's own rule (`BoundedLoad.choose`, without HTTP). Its set-up, as it prints it: "
                + String.join("; ", preamble) + ". A node's load is the number of requests it has "
                + "answered so far. **max load / mean** is over nodes at the end; **mean probes** is the nodes "
                + "whose load a request reads (1 + the nodes it skips; plain routing reads none); **left their "
                + "primary** is the share of "
                + "*requests* answered by a node other than the key's primary (the simulation counts requests, "
                + "not distinct keys: under Zipf traffic a hot key's requests leave its primary again and again).");
        Report.Table t = new Report.Table("traffic", ">bound c", ">max load / mean", ">mean probes",
                ">left their primary");
        for (Row row : rows) {
            t.row(row.traffic(), row.bound(), f("%.3f", row.maxOverMean()),
                    row.bound().equals("none") ? "-" : f("%.3f", 1 + row.meanSkipped()),
                    Report.pct(row.leftPrimary()));
        }
        t.writeTo(r);
        r.provenance("`BoundedLoadSimulation " + String.join(" ", ARGS) + "` (seeded, so the same every run).");
        r.image("max load over mean and requests off their primary against c", "bounded-loads");

        Row rec = recommended();
        Row uniformNone = row("uniform", "none");
        Row zipfNone = row("zipf-1.1", "none");
        Row zipfRec = row("zipf-1.1", rec.bound());
        Row zipf2 = row("zipf-1.1", "2.0");
        Row zipf11 = row("zipf-1.1", "1.1");
        r.para(f("**Recommended: c = %s.** It is the smallest c that leaves uniform traffic alone (%s of requests "
                + "off their primary): the ring's own imbalance at 128 points a node is %.3f here, and a bound "
                + "below it diverts keys that are only unlucky in placement, not hot. Under Zipf(1.1) the same c "
                + "holds the fullest node to %.2f x the mean instead of %.1f x, reading %.2f nodes' loads a "
                + "request, at the price of %s of requests answered off their primary (cache misses there). "
                + "Each step down costs more locality for less headroom: c = 1.1 sends %s off their primary and "
                + "reads %.2f loads a request; c = 2 still sends %s and allows twice the mean. "
                + "The rule behind the choice carries over to other rings: take c just above the ring's own "
                + "max / mean (section 1's tables for your N and points; this simulation only runs 128 points), "
                + "so more points per node (max / mean %.2f at the points section 1 recommends) allow a lower c.",
                rec.bound(), Report.pct(rec.leftPrimary()), uniformNone.maxOverMean(), zipfRec.maxOverMean(),
                zipfNone.maxOverMean(), 1 + zipfRec.meanSkipped(), Report.pct(zipfRec.leftPrimary()),
                Report.pct(zipf11.leftPrimary()), 1 + zipf11.meanSkipped(), Report.pct(zipf2.leftPrimary()),
                BalanceSection.TARGET));
        plot(r);
    }

    private void plot(Report r) throws IOException {
        XYChart max = Charts.xy("Fullest node", "bound c", "max load / mean");
        XYChart left = Charts.xy("Requests off their primary", "bound c", "% of requests");
        max.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        left.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        for (String traffic : List.of("uniform", "zipf-1.1")) {
            List<Row> bounded = rows.stream().filter(x -> x.traffic().equals(traffic) && !x.bound().equals("none"))
                    .toList();
            double[] c = bounded.stream().mapToDouble(Row::c).toArray();
            Charts.line(max, traffic, c, bounded.stream().mapToDouble(Row::maxOverMean).toArray());
            Charts.line(left, traffic, c, bounded.stream().mapToDouble(x -> 100 * x.leftPrimary()).toArray());
        }
        Charts.reference(max, "max / mean = c", new double[] {1.1, 2.0}, new double[] {1.1, 2.0},
                java.awt.Color.GRAY);
        Charts.save(r.plot("bounded-loads"), max, left);
    }
}
