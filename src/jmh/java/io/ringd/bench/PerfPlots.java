package io.ringd.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.style.Styler;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The plots of docs/benchmarks.md, from the results of bench/run.sh (JMH's
 * JSON) and bench/warmup.sh (its CSVs): lookup cost against ring size for
 * the ring and its peers, and throughput and p99 against seconds since the
 * process started; and, from bench/fanout.sh's {@code fanout.csv}, heap per
 * open stream and delivery against the number of streams, beside the
 * container before (docs/benchmarks/fanout-tomcat.csv). Run by bench/plots.sh.
 * Usage: PerfPlots JMH_JSON WARMUP_DIR OUT_DIR [FANOUT_CSV]
 */
public final class PerfPlots {

    private PerfPlots() {
    }

    public static void main(String[] args) throws IOException {
        Path jmh = Path.of(args[0]);
        Path warmup = Path.of(args[1]);
        Path out = Path.of(args[2]);
        Files.createDirectories(out);
        if (Files.exists(jmh)) {
            ringSize(jmh, out.resolve("lookup-vs-ring-size.png"));
        } else {
            System.err.println("PerfPlots: no " + jmh + ", no ring size plot");
        }
        if (Files.isDirectory(warmup)) {
            warmup(warmup, out.resolve("warmup.png"));
        } else {
            System.err.println("PerfPlots: no " + warmup + ", no warm-up plot");
        }
        Path fanout = Path.of(args.length > 3 ? args[3] : "target/fanout/fanout.csv");
        if (Files.exists(fanout)) {
            fanout(fanout, out.resolve("fanout-tomcat.csv"), out.resolve("fanout.png"));
        } else {
            System.err.println("PerfPlots: no " + fanout + ", no fan-out plot");
        }
    }

    /** Rows of a fanout.csv: streams, heap KiB per stream, histogram KiB per stream, idle CPU, p50, p99, max. */
    private static List<double[]> csv(Path file) throws IOException {
        List<double[]> rows = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (!line.isBlank() && !line.startsWith("streams")) {
                String[] f = line.split(",");
                double[] row = new double[f.length];
                for (int i = 0; i < f.length; i++) {
                    row[i] = f[i].isBlank() ? Double.NaN : Double.parseDouble(f[i]);
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private static double[] column(List<double[]> rows, int i) {
        return rows.stream().mapToDouble(r -> r[i]).toArray();
    }

    private static void fanout(Path csv, Path before, Path png) throws IOException {
        List<double[]> now = csv(csv);
        XYChart heap = Charts.xy("Heap per idle /ring/events stream", "open streams", "KiB per stream");
        XYChart delivery = Charts.xy("From a commit to its event at every stream", "open streams", "ms");
        double[] streams = column(now, 0);
        double[] span = {0, streams.length == 0 ? 10_000 : Math.max(10_000, streams[streams.length - 1])};
        if (Files.exists(before)) {
            List<double[]> tomcat = csv(before);
            Charts.line(heap, "Tomcat (before), used after GC", column(tomcat, 0), column(tomcat, 1));
            Charts.line(delivery, "Tomcat (before), p99", column(tomcat, 0), column(tomcat, 5));
        }
        Charts.line(heap, "used after GC", streams, column(now, 1));
        Charts.line(heap, "class histogram", streams, column(now, 2));
        Charts.reference(heap, "goal: 16 KiB", span, new double[] {16, 16}, java.awt.Color.RED);
        heap.getStyler().setYAxisLogarithmic(true);
        Charts.line(delivery, "p50", streams, column(now, 4));
        Charts.line(delivery, "p99", streams, column(now, 5));
        Charts.reference(delivery, "goal: p99 100 ms", span, new double[] {100, 100}, java.awt.Color.RED);
        Charts.save(png, heap, delivery);
        System.out.println("wrote " + png);
    }

    private static void ringSize(Path json, Path png) throws IOException {
        JsonNode results = JsonMapper.builder().build().readTree(json.toFile());
        Map<String, TreeMap<Integer, Double>> series = new LinkedHashMap<>();
        for (JsonNode r : results) {
            String name = r.get("benchmark").asString();
            if (!name.contains("RingSizeBenchmark.")) {
                continue;
            }
            String method = name.substring(name.lastIndexOf('.') + 1);
            int nodes = Integer.parseInt(r.get("params").get("nodes").asString());
            series.computeIfAbsent(method, k -> new TreeMap<>())
                    .put(nodes, r.get("primaryMetric").get("score").asDouble());
        }
        if (series.isEmpty()) {
            System.err.println("PerfPlots: no RingSizeBenchmark results in " + json);
            return;
        }
        XYChart search = Charts.xy("Search alone (hash given), 160 points a node", "nodes", "ns per lookup");
        XYChart route = Charts.xy("Whole lookup (key to node), 160 points a node", "nodes", "ns per lookup");
        for (XYChart c : List.of(search, route)) {
            c.getStyler().setXAxisLogarithmic(true);
            c.getStyler().setYAxisLogarithmic(true);
            c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        }
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("search_ringd", "ringd routeHash");
        labels.put("search_treeMap", "TreeMap.ceilingEntry");
        labels.put("search_guavaJump", "Guava consistentHash (jump)");
        labels.put("route_ringd", "ringd route, murmur3");
        labels.put("route_treeMap", "TreeMap ring, murmur3");
        labels.put("route_guavaJump", "Guava jump, murmur3");
        labels.put("route_ringdKetama", "ringd route, ketama (md5)");
        labels.put("route_spymemcached", "spymemcached getPrimary (md5)");
        for (Map.Entry<String, String> e : labels.entrySet()) {
            TreeMap<Integer, Double> s = series.get(e.getKey());
            if (s == null) {
                continue;
            }
            double[] x = s.keySet().stream().mapToDouble(Integer::doubleValue).toArray();
            double[] y = s.values().stream().mapToDouble(Double::doubleValue).toArray();
            Charts.line(e.getKey().startsWith("search") ? search : route, e.getValue(), x, y);
        }
        Charts.save(png, search, route);
        System.out.println("wrote " + png);
    }

    private static void warmup(Path dir, Path png) throws IOException {
        XYChart throughput = Charts.xy("GET /route/{key}: throughput after start", "seconds since the process started",
                "requests/s (1-s wrk slices)");
        XYChart p99 = Charts.xy("GET /route/{key}: p99 after start", "seconds since the process started",
                "p99, ms (1-s wrk slices)");
        p99.getStyler().setYAxisLogarithmic(true);
        throughput.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
        p99.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        int drawn = 0;
        for (String variant : List.of("plain", "warmup", "cds", "image")) {
            Path csv = dir.resolve(variant + ".csv");
            if (!Files.exists(csv)) {
                continue;
            }
            List<double[]> rows = new ArrayList<>();
            for (String line : Files.readAllLines(csv)) {
                if (!line.startsWith("seconds")) {
                    String[] f = line.split(",");
                    rows.add(new double[] {Double.parseDouble(f[0]), Double.parseDouble(f[1]),
                        Double.parseDouble(f[3])});
                }
            }
            List<double[]> slices = rows.subList(1, rows.size()); // the first row is the ready moment
            if (slices.isEmpty()) {
                continue;
            }
            double[] t = slices.stream().mapToDouble(r -> r[0]).toArray();
            Charts.line(throughput, variant, t, slices.stream().mapToDouble(r -> r[1]).toArray());
            Charts.line(p99, variant, t, slices.stream().mapToDouble(r -> Math.max(r[2], 0.01)).toArray());
            drawn++;
        }
        if (drawn == 0) {
            System.err.println("PerfPlots: no warm-up CSVs in " + dir);
            return;
        }
        Charts.saveStacked(png, throughput, p99);
        System.out.println("wrote " + png);
    }
}
