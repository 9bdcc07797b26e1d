package io.ringd.bench;

import io.ringd.state.ExpensiveReads;
import io.ringd.state.HandoffProperties;
import io.ringd.state.RingSettings;
import io.ringd.state.Rings;
import io.ringd.store.FileRingStores;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * The rings' share of start-up without the application around them: a
 * {@link Rings} made on a copy of a data folder ({@code FileRingStores}:
 * every ring's file read, decoded, checked, its ring built), without parts
 * (no meters, loads or streams), {@code RUNS} times in one JVM, the first
 * cold as at a start. Against the time between the first and last ring
 * served in a real start's log, the difference is what the parts (the
 * metrics above all) cost. Usage: {@code RingsLoad <data folder> [runs]};
 * run by bench/rings.sh on its folder of 101 rings.
 */
public final class RingsLoad {

    private RingsLoad() {
    }

    public static void main(String[] args) throws Exception {
        Path source = Path.of(args[0]);
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        for (int run = 1; run <= runs; run++) {
            Path copy = Files.createTempDirectory("rings-load");
            copyTree(source, copy);
            long t0 = System.nanoTime();
            int served;
            try (Rings rings = new Rings(new FileRingStores(copy), RingSettings.defaults(), 128, List.of(),
                    List.of(), Clock.systemUTC(), ExpensiveReads.unlimited(),
                    new HandoffProperties(Duration.ofMinutes(10)), 10_000)) {
                served = rings.all().size();
                long ms = (System.nanoTime() - t0) / 1_000_000;
                System.out.printf("run %d: %d rings loaded without parts in %d ms, %.1f ms a ring%s%n", run, served,
                        ms, ms / (double) served, run == 1 ? " (cold, as at a start)" : "");
            }
            removeTree(copy);
        }
    }

    private static void copyTree(Path from, Path to) throws Exception {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                String name = p.getFileName() == null ? "" : p.getFileName().toString();
                if (name.endsWith(".lock")) {
                    continue;
                }
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    private static void removeTree(Path root) throws Exception {
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
