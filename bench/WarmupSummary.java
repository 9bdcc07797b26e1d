import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Summarises bench/warmup.sh's CSVs (target/warmup/VARIANT.csv): when the instance was
 * ready, its steady throughput (median of the last 10 one-second slices), the time from
 * process start until a slice first reached 90% of it, and the p99 of the slices in the
 * first 30 s of load (the worst slice, and the median slice).
 * Usage: java bench/WarmupSummary.java target/warmup plain warmup cds image
 */
public class WarmupSummary {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        System.out.println("| variant | ready after | steady req/s | 90% of steady after | p99 first 30 s: worst 1-s slice"
                + " | median 1-s slice | req/s in the first 10 s of load |");
        System.out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (int a = 1; a < args.length; a++) {
            List<double[]> rows = new ArrayList<>();
            for (String line : Files.readAllLines(dir.resolve(args[a] + ".csv"))) {
                if (!line.startsWith("seconds")) {
                    rows.add(Arrays.stream(line.split(",")).mapToDouble(Double::parseDouble).toArray());
                }
            }
            double ready = rows.get(0)[0];
            List<double[]> slices = rows.subList(1, rows.size());
            double[] lastTen = slices.subList(Math.max(0, slices.size() - 10), slices.size()).stream()
                    .mapToDouble(r -> r[1]).sorted().toArray();
            double steady = lastTen[lastTen.length / 2];
            double t90 = Double.NaN;
            for (double[] r : slices) {
                if (r[1] >= 0.9 * steady) {
                    t90 = r[0];
                    break;
                }
            }
            double[] p99 = slices.stream().filter(r -> r[0] <= ready + 30).mapToDouble(r -> r[3]).sorted().toArray();
            double first10 = slices.stream().filter(r -> r[0] <= ready + 10).mapToDouble(r -> r[1]).average()
                    .orElse(0);
            System.out.printf("| %s | %.1f s | %,.0f | %.1f s | %.1f ms | %.1f ms | %,.0f |%n", args[a], ready, steady,
                    t90, p99[p99.length - 1], p99[p99.length / 2], first10);
        }
    }
}
