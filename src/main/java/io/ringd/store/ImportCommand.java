package io.ringd.store;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.springframework.boot.convert.DurationStyle;

import io.ringd.state.PersistedState;
import io.ringd.state.RingNames;

/**
 * {@code java -jar ringd.jar import --ringd.data-dir=./data --ringd.zookeeper.connect=HOST:2181
 * [--ringd.zookeeper.path=/ringd]}: moves a single instance's file store into an empty
 * ZooKeeper path, history and commit times included, so that several instances can share it: the ring
 * default and every named ring of the folder (docs/ring.md section 22). It refuses a path that already holds
 * a ring, and a data folder that a running ringd holds.
 */
public final class ImportCommand {

    /** Exit codes: done, failed, refused (the path holds a ring already). */
    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int REFUSED = 2;

    private static final Set<String> OPTIONS = Set.of("ringd.data-dir", "ringd.zookeeper.connect",
            "ringd.zookeeper.path", "ringd.zookeeper.connect-timeout");

    private ImportCommand() {
    }

    /** Runs the import; answers its exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Map<String, String> opts = new LinkedHashMap<>();
        for (String a : args) {
            int eq = a.indexOf('=');
            String name = a.startsWith("--") && eq > 2 ? a.substring(2, eq) : null;
            if (name == null || !OPTIONS.contains(name)) {
                err.println("import: unknown argument " + a + "; usage: java -jar ringd.jar import "
                        + "--ringd.data-dir=DIR --ringd.zookeeper.connect=HOST:PORT[,...] [--ringd.zookeeper.path=/ringd]");
                return FAILED;
            }
            opts.put(name, a.substring(eq + 1));
        }
        String connect = opts.get("ringd.zookeeper.connect");
        if (connect == null || connect.isBlank()) {
            err.println("import: --ringd.zookeeper.connect=HOST:PORT[,...] is required");
            return FAILED;
        }
        Path dataDir = Path.of(opts.getOrDefault("ringd.data-dir", "./data"));
        Duration timeout;
        try {
            timeout = DurationStyle.detectAndParse(opts.getOrDefault("ringd.zookeeper.connect-timeout", "10s"));
        } catch (IllegalArgumentException e) {
            err.println("import: --ringd.zookeeper.connect-timeout is not a duration (such as 10s)");
            return FAILED;
        }
        ZooKeeperProperties zk = new ZooKeeperProperties(connect, opts.getOrDefault("ringd.zookeeper.path", "/ringd"),
                Duration.ofSeconds(15), timeout, Duration.ofSeconds(1), Duration.ZERO, null);
        Map<String, PersistedState> rings = new java.util.TreeMap<>();
        try (FileRingStores file = new FileRingStores(dataDir)) {
            Optional<PersistedState> loaded = file.store(RingNames.DEFAULT).load();
            if (loaded.isEmpty()) {
                err.println("import: no ring in " + dataDir.toAbsolutePath().normalize() + " (no "
                        + FileRingStore.STATE_FILE + "): nothing to import");
                return FAILED;
            }
            rings.put(RingNames.DEFAULT, loaded.get());
            for (String name : file.names()) {
                file.store(name).load().ifPresent(s -> rings.put(name, s));
            }
            for (PersistedState s : rings.values()) {
                s.checkConsistent();
            }
        } catch (RuntimeException e) {
            err.println("import: " + e.getMessage());
            return FAILED;
        }
        try (ZooKeeperRingStores target = new ZooKeeperRingStores(zk)) {
            Set<String> there = target.names();
            if (!there.isEmpty()) {
                err.println("import: refused: " + target.describe() + " already holds the rings " + there
                        + "; nothing was changed. Import into an empty path, or remove that one first.");
                return REFUSED;
            }
            PersistedState state = rings.get(RingNames.DEFAULT);
            PersistedState stored = target.store(RingNames.DEFAULT).create(state);
            if (stored != state) {
                err.println("import: refused: " + target.describe() + " already holds a ring (version "
                        + stored.version() + ", " + stored.nodes().size() + " nodes); nothing was changed. "
                        + "Import into an empty path, or remove that one first.");
                return REFUSED;
            }
            out.println("import: version " + state.version() + " (" + state.nodes().size() + " nodes, "
                    + state.history().size() + " versions kept) from " + dataDir.toAbsolutePath().normalize()
                    + " into " + target.describe());
            for (Map.Entry<String, PersistedState> e : rings.entrySet()) {
                if (e.getKey().equals(RingNames.DEFAULT)) {
                    continue;
                }
                PersistedState s = e.getValue();
                target.create(e.getKey(), s);
                out.println("import: the ring " + e.getKey() + ", version " + s.version() + " ("
                        + s.nodes().size() + " nodes, " + s.history().size() + " versions kept)");
            }
            return OK;
        } catch (RuntimeException e) {
            err.println("import: " + e.getMessage());
            return FAILED;
        }
    }
}
