package io.ringd.bench;

import static io.ringd.bench.Report.f;
import static io.ringd.bench.Report.n;
import static io.ringd.bench.Report.pct;
import static io.ringd.bench.Report.ratio;

import io.ringd.ring.KeyHashes;

import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;

/**
 * Writes docs/algorithms.md and its plots (docs/algorithms/*.png): balance,
 * the need for a mixing hash, movement, lookup cost (JMH, run from here) and
 * bounded loads, for the ring, ketama, Maglev, rendezvous and jump hashing;
 * section 6 (bench/slow-node.sh, {@link SlowNodeReport}) is kept as the file
 * has it.
 * Run by {@code bench/algorithms.sh}; arguments: {@code --out DIR} (where
 * algorithms.md and algorithms/ go; default docs) and {@code --quick}
 * (smaller samples and short JMH iterations, to try the command out; its
 * output defaults to target/algorithms-quick).
 */
public final class AlgorithmsReport {

    private AlgorithmsReport() {
    }

    public static void main(String[] args) throws Exception {
        boolean quick = false;
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--out" -> {
                    if (i + 1 == args.length) {
                        throw new IllegalArgumentException("--out needs a directory");
                    }
                    out = Path.of(args[++i]);
                }
                default -> throw new IllegalArgumentException("unknown argument (--quick, --out DIR): " + args[i]);
            }
        }
        if (out == null) {
            out = Path.of(quick ? "target/algorithms-quick" : "docs");
        }
        long start = System.nanoTime();
        Report report = new Report(out, quick, Machine.here());

        log("lookup cost (JMH) ...");
        LookupSection lookup = new LookupSection();
        lookup.compute(report);

        long[] keyHashes = new long[report.sampleKeys];
        for (int k = 0; k < keyHashes.length; k++) {
            keyHashes[k] = KeyHashes.md5().hashUnsigned("user:" + k);
        }
        log("balance ...");
        BalanceSection balance = new BalanceSection();
        balance.compute(report, keyHashes);
        log("weak hash ...");
        WeakHashSection weak = new WeakHashSection();
        weak.compute(balance);
        log("movement ...");
        MovementSection movement = new MovementSection();
        movement.compute(report, keyHashes, balance.hrwAssignments);
        log("bounded loads ...");
        BoundedLoadSection bounded = new BoundedLoadSection();
        bounded.compute();
        double minutes = (System.nanoTime() - start) / 60e9;

        log("writing " + report.markdown + " ...");
        header(report, minutes);
        summary(report, balance, weak, movement, lookup, bounded);
        balance.write(report);
        weak.write(report);
        movement.write(report);
        lookup.write(report);
        bounded.write(report);
        report.carryOver(SlowNodeReport.HEADING); // section 6: bench/slow-node.sh writes it
        report.write();
        log(f("done in %.1f min: %s and %s/*.png", (System.nanoTime() - start) / 60e9, report.markdown,
                report.plots));
    }

    private static void log(String what) {
        System.out.println("[algorithms] " + what);
    }

    private static void header(Report r, double minutes) {
        Machine m = r.machine;
        r.line("# Choosing a placement: balance, movement, lookup cost, bounded loads");
        r.line();
        r.para("<!-- Written by bench/algorithms.sh (io.ringd.bench.AlgorithmsReport): edit the code, not this "
                + "file. -->");
        r.para("This page helps choose among the placements of docs/ring.md: the consistent-hash ring "
                + "(sections 3 to 10) and how many points per node it needs, libketama's ring (section 14), the "
                + "Maglev table (section 15), and rendezvous (HRW) and jump hashing, which ringd does not serve "
                + "but compares itself with (section 16). Every table and plot of sections 1 to 5 comes from one "
                + "command, run on the machine below; section 6, the fleet's latencies as bounded routing's load "
                + "(section 23), comes from `" + SlowNodeReport.COMMAND + "`, which runs real servers, and names "
                + "its own machine:");
        r.line("```sh");
        r.line(Report.COMMAND + "            # about 4 minutes on this machine");
        r.line(Report.COMMAND + " --quick    # a try-out in about 1: smaller samples, short JMH runs, "
                + "written to target/algorithms-quick/");
        r.line("```");
        r.line();
        r.para("It compiles the benchmarks (`./mvnw -Pbench test-compile`) and runs "
                + "`io.ringd.bench.AlgorithmsReport` (src/jmh/java), which computes sections 1 to 3 and 5 from the "
                + "ring library (exact wherever the library can be exact), runs the JMH benchmark of section 4 "
                + "(`AlgorithmLookupBenchmark`) in forked JVMs, and draws the plots with XChart into "
                + "docs/algorithms/. Everything except section 4 is deterministic: a rerun changes only the lookup "
                + "timings and this header.");
        Report.Table t = new Report.Table("", "");
        t.row("command", "`" + Report.COMMAND + "`" + (r.quick ? " `--quick`" : ""));
        t.row("run time", f("%.1f minutes (the report program; the Maven build before it adds about half a "
                + "minute)", minutes));
        t.row("cores (`nproc`)", m.nproc());
        t.row("CPU (`/proc/cpuinfo` model name)", m.cpu());
        t.row("memory", m.memory() + ", a virtual machine shared with other work");
        t.row("`java -version`", String.join("<br>", m.javaVersion()));
        String[] c = m.commit().split(" ", 2);
        t.row("commit", "`" + c[0] + "`" + (c.length > 1 ? " " + c[1] : "") + ", "
                + LocalDate.now(ZoneOffset.UTC));
        t.writeTo(r);
        if (r.quick) {
            r.para("**This is a `--quick` run**: " + n(r.sampleKeys) + " sampled keys, " + r.changes + " changes "
                    + "per movement figure and short JMH iterations. Not for publishing.");
        }
        r.line("Contents: [how to choose](#how-to-choose) · [1. balance](#1-balance-how-many-points-per-node) · "
                + "[2. mixing hash](#2-why-xi-needs-a-mixing-hash) · "
                + "[3. movement](#3-movement-when-a-node-joins-or-leaves) · "
                + "[4. lookup cost](#4-lookup-cost-against-n) · [5. bounded loads](#5-bounded-loads-choosing-c) · "
                + "[6. the fleet as the load signal](#6-the-fleet-as-the-load-signal)");
        r.line();
    }

    private static void summary(Report r, BalanceSection balance, WeakHashSection weak, MovementSection movement,
            LookupSection lookup, BoundedLoadSection bounded) {
        r.line("## How to choose");
        r.line();
        int def = BalanceSection.indexOf(128);
        StringBuilder defaults = new StringBuilder();
        for (int n : BalanceSection.SIZES) {
            defaults.append(defaults.length() == 0 ? "" : ", ").append(n).append(" nodes ")
                    .append(ratio(balance.setMean.get(n)[def]));
        }
        r.line(f("- **Points per node (ring).** The fullest node's share is what to size for. With max / mean at "
                + "most %.2f as the target, exact ownership says:", BalanceSection.TARGET));
        for (String s : balance.recommendations()) {
            r.line("  - " + s);
        }
        r.line(f("  The default of 128 gives max / mean %s (mean over the same sets of ids): close for a "
                + "handful of nodes, well short for hundreds. Memory is %d bytes a point (section 1).", defaults,
                BalanceSection.BYTES_PER_POINT));
        int v160 = BalanceSection.indexOf(160);
        r.line(f("- **Always a mixing hash** for the points. A `String.hashCode`-style fold gives 50 nodes at 160 "
                + "points a max / mean of %s (md5: %s, murmur3: %s): the points of a node clump (section 2). "
                + "md5 and murmur3 balance alike; murmur3 is the cheaper one.",
                ratio(weak.balance.get("fold31").get(50)[v160].maxOverMean()),
                ratio(weak.balance.get("md5").get(50)[v160].maxOverMean()),
                ratio(weak.balance.get("murmur3").get(50)[v160].maxOverMean())));
        MovementSection.Move mj = movement.find("Maglev, M = 65,537", 50, "join");
        MovementSection.Move mj500 = movement.find("Maglev, M = 65,537", 500, "join");
        MovementSection.Move ml500 = movement.find("Maglev, M = " + n(BalanceSection.LARGE_TABLE), 500, "join");
        MovementSection.Move rj = movement.find("ring (md5, 128)", 50, "join");
        MovementSection.Move jm = movement.find("jump", 50, "leave (middle bucket)");
        r.line(f("- **Movement.** The ring, HRW and jump (growing or shrinking at the end) move the ideal share on "
                + "average, and only to or from the node that changed; the ring's figure varies with the changed "
                + "node's share (section 1). Maglev also moves keys between nodes that stay: at 50 nodes a join "
                + "moves %s instead of %s (%s keys per million for nothing), at 500 nodes %.1f times the ideal "
                + "(%.1f times with M = %s). Jump losing a middle node moves %s of the keys (ideal %s). Ketama "
                + "keeps libketama's placement, movement included.",
                pct(mj.mean()), pct(mj.ideal()), n(Math.round(mj.extra() * 1e6)), mj500.ratio(), ml500.ratio(),
                n(BalanceSection.LARGE_TABLE), pct(jm.mean()), pct(jm.ideal()))
                + (rj.extra() == 0 ? "" : " (The ring moved keys between nodes that stay!)"));
        var ring = lookup.scores.get("ring");
        var maglev = lookup.scores.get("maglev");
        var hrw = lookup.scores.get("rendezvous");
        double x = lookup.crossover();
        r.line(f("- **Lookup cost.** Maglev is the fastest (%.1f ns at 100 nodes, nearly flat in N); at 100 "
                + "nodes jump takes %.1f ns and the ring %.1f ns (%.0f ns at 10,000). HRW costs about %.0f ns a "
                + "node: it loses to the ring %s and is %.0f times slower at 100 nodes. Hashing the key (md5 "
                + "%.0f ns, murmur3 %.0f ns) often costs more than the placement.",
                maglev.get(100).score(), lookup.scores.get("jump").get(100).score(), ring.get(100).score(),
                ring.get(ring.lastKey()).score(), lookup.hrwPerNode(),
                Double.isNaN(x) ? "at no N measured" : lookup.hrwSlowerAtSmallest()
                        ? f("from the smallest N measured (%d)", (int) x) : f("from about %.0f nodes", Math.ceil(x)),
                hrw.get(100).score() / ring.get(100).score(), lookup.hashOnly.get("md5").score(),
                lookup.hashOnly.get("murmur3").score()));
        BoundedLoadSection.Row rec = bounded.recommended();
        r.line(f("- **Bounded loads: c = %s**, the smallest bound that leaves uniform traffic alone on a ring of "
                + "128 points a node; under Zipf(1.1) it caps the fullest node at %.2f x the mean (%.1f x "
                + "unbounded) with %s of requests answered off their primary (section 5).", rec.bound(),
                bounded.row("zipf-1.1", rec.bound()).maxOverMean(), bounded.row("zipf-1.1", "none").maxOverMean(),
                pct(bounded.row("zipf-1.1", rec.bound()).leftPrimary())));
        r.line();
        r.para("In short: **the ring** with a mixing hash and the points of section 1 is the general choice "
                + "(weights, minimal movement, preference lists, exact ownership and diffs). **Maglev** when "
                + "lookups must be as cheap and even as possible and the extra movement on a change is "
                + "acceptable (stateless balancing rather than caches). **ketama** to share a ring with "
                + "libketama clients. **HRW** only for a few nodes; **jump** for numbered shards that only grow "
                + "or shrink at the end and need no weights.");
    }
}
