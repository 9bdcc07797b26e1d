package io.ringd.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ringd.state.PersistedState;
import io.ringd.state.PlanStore;
import io.ringd.state.RingConflictException;
import io.ringd.state.RingNames;
import io.ringd.state.RingStore;
import io.ringd.state.RingStores;
import io.ringd.state.StateUnreadableException;
import io.ringd.state.StoreUnavailableException;

/**
 * Every ring in the data folder ({@code ringd.store=file}, the default): the
 * ring {@code default} in {@code ring-state.json} at the top, where a ringd
 * before named rings kept its one ring, and each other ring in
 * {@code rings/<name>/ring-state.json}, each written as {@link FileRingStore}
 * writes one (docs/ring.md section 22).
 */
public final class FileRingStores implements RingStores {

    /*
     * Making a ring: its folder is made and forced (with rings/ itself), then
     * its version 0 is saved as every version is (temp file, force, rename,
     * force), and only then is it acknowledged. A folder without a state file
     * is a ring whose making was cut short (never acknowledged) and is
     * removed at start; unless a temp file in it holds a later version than
     * 0, which means its state file was lost: then the start is refused, as
     * FileRingStore refuses it for the folder's top.
     *
     * Deleting a ring: its store is closed, its folder renamed (atomically)
     * to rings/.deleted-<name>-<uuid> and rings/ forced, so the ring is gone
     * at once and for good; the renamed folder is then removed, or at the
     * next start if that was cut short.
     */

    /** The folder of the rings other than {@code default}. */
    public static final String RINGS = "rings";
    private static final String DELETED = ".deleted-";
    private static final Logger log = LoggerFactory.getLogger(FileRingStores.class);

    private final Path dir;
    private final Path rings;
    private final ConcurrentHashMap<String, FileRingStore> stores = new ConcurrentHashMap<>();

    /** Opens (and locks) the data folder; the ring {@code default} lives at its top. */
    public FileRingStores(Path dataDir) {
        this.dir = dataDir.toAbsolutePath().normalize();
        this.rings = dir.resolve(RINGS);
        stores.put(RingNames.DEFAULT, new FileRingStore(dir));
    }

    @Override
    public RingStore store(String name) {
        return stores.computeIfAbsent(name, n -> new FileRingStore(rings.resolve(n)));
    }

    @Override
    public PlanStore plans(String name) {
        return new FilePlanStore(RingNames.DEFAULT.equals(name) ? dir : rings.resolve(name));
    }

    @Override
    public Set<String> names() {
        Set<String> names = new TreeSet<>();
        if (!Files.isDirectory(rings, LinkOption.NOFOLLOW_LINKS)) {
            return names;
        }
        try (DirectoryStream<Path> all = Files.newDirectoryStream(rings)) {
            for (Path p : all) {
                String name = p.getFileName().toString();
                if (name.startsWith(DELETED)) {
                    log.info("Removing {}, a deleted ring whose removal was cut short", p);
                    removeTree(p);
                } else if (!RingNames.valid(name) || RingNames.DEFAULT.equals(name)
                        || !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    log.warn("Ignoring {}: not a ring's folder (a ring's name is 1 to 63 of a-z, 0-9 and '-')", p);
                } else if (Files.exists(p.resolve(FileRingStore.STATE_FILE), LinkOption.NOFOLLOW_LINKS)) {
                    names.add(name);
                } else {
                    abandon(p);
                }
            }
        } catch (IOException e) {
            throw new StateUnreadableException(rings.toString(), "cannot list the rings in " + rings + ": " + e, e);
        }
        return names;
    }

    /** A ring's folder without a state file: a making cut short, removed; or a lost state file, refused. */
    private void abandon(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String n = f.getFileName().toString();
                if (n.startsWith(FileRingStore.STATE_FILE + ".") && n.endsWith(".tmp")) {
                    long version;
                    try {
                        version = new StateCodec().decode(Files.readAllBytes(f)).version();
                    } catch (IOException | RuntimeException e) {
                        continue; // cut short
                    }
                    if (version > 0) {
                        throw new StateUnreadableException(folder.toString(), "the ring state file "
                                + folder.resolve(FileRingStore.STATE_FILE) + " is missing, but " + f
                                + " holds version " + version + ": the state file was moved away or lost, and "
                                + "ringd will not start without it (restore the file, or remove the folder to "
                                + "delete the ring)", null);
                    }
                }
            }
        }
        log.warn("Removing {}: the making of this ring was cut short before it was acknowledged", folder);
        removeTree(folder);
    }

    @Override
    public synchronized void create(String name, PersistedState initial) {
        Path folder = rings.resolve(name);
        if (Files.exists(folder.resolve(FileRingStore.STATE_FILE), LinkOption.NOFOLLOW_LINKS)) {
            throw new RingConflictException("a ring named " + name + " exists already in " + folder);
        }
        try {
            boolean first = !Files.isDirectory(rings);
            Files.createDirectories(folder);
            force(rings);
            if (first) {
                force(dir);
            }
        } catch (IOException e) {
            throw new StoreUnavailableException("cannot make the folder " + folder + ": " + e, e);
        }
        FileRingStore store = (FileRingStore) store(name);
        try {
            store.save(initial);
        } catch (StoreUnavailableException e) {
            forget(name);
            removeTree(folder);
            throw e;
        }
    }

    @Override
    public synchronized void delete(String name) {
        if (RingNames.DEFAULT.equals(name)) {
            throw new IllegalArgumentException("the ring default is never deleted");
        }
        Path folder = rings.resolve(name);
        forget(name);
        if (!Files.exists(folder, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Path gone = rings.resolve(DELETED + name + "-" + UUID.randomUUID());
        try {
            Files.move(folder, gone, StandardCopyOption.ATOMIC_MOVE);
            force(rings);
        } catch (IOException e) {
            throw new StoreUnavailableException("cannot delete the ring's folder " + folder + ": " + e, e);
        }
        removeTree(gone);
    }

    @Override
    public void forget(String name) {
        if (RingNames.DEFAULT.equals(name)) {
            return;
        }
        FileRingStore store = stores.remove(name);
        if (store != null) {
            store.close();
        }
    }

    @Override
    public String describe() {
        return dir.toString();
    }

    @Override
    public void close() {
        stores.values().forEach(FileRingStore::close);
        stores.clear();
    }

    private static void force(Path folder) throws IOException {
        try (FileChannel d = FileChannel.open(folder, StandardOpenOption.READ)) {
            d.force(true);
        }
    }

    private static void removeTree(Path root) {
        try (Stream<Path> all = Files.walk(root)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    log.warn("Could not remove {}: {}", p, e.toString());
                }
            });
        } catch (IOException e) {
            log.warn("Could not remove {}: {}", root, e.toString());
        }
    }
}
