package io.ringd.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.LinkOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ringd.state.CannotStartException;
import io.ringd.state.PersistedState;
import io.ringd.state.RingStore;
import io.ringd.state.StateUnreadableException;
import io.ringd.state.StoreUnavailableException;

/**
 * Keeps the state in one file, {@code ring-state.json}, in the data folder
 * ({@code ringd.store=file}, the default).
 */
public final class FileRingStore implements RingStore, AutoCloseable {

    /*
     * Durability. save() writes a new temp file in the same folder, forces
     * it to disk, renames it atomically over ring-state.json, then forces the
     * folder so the rename itself is durable. Only then does it return, and
     * only then is the change acknowledged. A crash at any point leaves
     * either the old file or the new one, never a mix; leftover temp files
     * are ignored (and removed) at the next start. A temp file beside no
     * state file is ignored only if it holds nothing or version 1 (the first
     * write, never acknowledged); a later version means the state file was
     * lost, and the start is refused. A failed write (a full disk: ENOSPC,
     * EFBIG) removes its temp file and leaves the old state file as it was. A lock file keeps two
     * processes from sharing one folder.
     */

    public static final String STATE_FILE = "ring-state.json";
    private static final String TEMP_SUFFIX = ".tmp";
    private static final Logger log = LoggerFactory.getLogger(FileRingStore.class);

    private final Path dir;
    private final Path file;
    private final StateCodec codec = new StateCodec();
    private final FileChannel lockChannel;
    private final FileLock lock;

    /**
     * Opens the data folder, creating it if needed, and locks it.
     *
     * @throws IllegalStateException if it cannot be created or another process holds it
     */
    public FileRingStore(Path dataDir) {
        this.dir = dataDir.toAbsolutePath().normalize();
        this.file = dir.resolve(STATE_FILE);
        try {
            Files.createDirectories(dir);
            lockChannel = FileChannel.open(dir.resolve("ringd.lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new CannotStartException("cannot use the data folder " + dir + ": " + e,
                    "Make the folder writable by the user ringd runs as, or name another with ringd.data-dir "
                            + "(RINGD_DATA_DIR).", e);
        }
        FileLock l;
        try {
            l = lockChannel.tryLock();
        } catch (IOException | OverlappingFileLockException e) {
            l = null;
        }
        if (l == null) {
            closeQuietly();
            throw new CannotStartException("the data folder " + dir
                    + " is in use by another ringd process (it holds the lock on " + dir.resolve("ringd.lock") + ")",
                    "Stop the other process first, or give this one a folder of its own with ringd.data-dir "
                            + "(RINGD_DATA_DIR). Two processes never share a file store; to run several instances "
                            + "of one ring, use the zookeeper store.");
        }
        this.lock = l;
    }

    @Override
    public Optional<PersistedState> load() {
        List<Path> leftovers = leftoverTempFiles();
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            checkNoLostState(leftovers);
            removeLeftoverTempFiles(leftovers);
            return Optional.empty();
        }
        removeLeftoverTempFiles(leftovers);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new StateUnreadableException(file.toString(),
                    "cannot read the ring state file " + file + ": " + e, e);
        }
        try {
            return Optional.of(codec.decode(bytes));
        } catch (RuntimeException e) {
            throw new StateUnreadableException(file.toString(), "cannot read the ring state file " + file + ": "
                    + e.getMessage()
                    + " (ringd will not start with an empty ring in its place; restore the file or move it away)",
                    e);
        }
    }

    /**
     * With no state file, a leftover temp file is safe to ignore only when it
     * comes from the first write ever (version 1, or unreadable: cut short),
     * which was never acknowledged. One that holds a later version can only
     * have been written beside a state file: that file is gone, and starting
     * an empty ring would lose acknowledged versions.
     */
    private void checkNoLostState(List<Path> leftovers) {
        for (Path p : leftovers) {
            PersistedState s;
            try {
                s = codec.decode(Files.readAllBytes(p));
            } catch (IOException | RuntimeException e) {
                continue; // cut short by the crash: never renamed, never acknowledged
            }
            if (s.version() > 1) {
                throw new StateUnreadableException(file.toString(), "the ring state file " + file
                        + " is missing, but " + p + ", left over from an interrupted write, holds version "
                        + s.version() + ": the state file was moved away or lost, and ringd will not start an "
                        + "empty ring in its place (restore the file; " + p.getFileName()
                        + " is the version after the last one it had)", null);
            }
        }
    }

    @Override
    public void save(PersistedState state) {
        byte[] bytes = codec.encode(state);
        Path tmp = dir.resolve(STATE_FILE + "." + UUID.randomUUID() + TEMP_SUFFIX);
        boolean renamed = false;
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer buf = ByteBuffer.wrap(bytes);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            renamed = true;
            try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
                d.force(true);
            }
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // the next start removes it
            }
            // once renamed, the new state may survive a crash although the folder could not be forced
            throw new StoreUnavailableException("cannot write the ring state to " + file + ": " + e, e, renamed);
        }
    }

    private List<Path> leftoverTempFiles() {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> leftovers = Files.newDirectoryStream(dir, STATE_FILE + ".*" + TEMP_SUFFIX)) {
            leftovers.forEach(out::add);
        } catch (IOException e) {
            log.warn("Could not list leftover temp files in {}: {}", dir, e.toString());
        }
        return out;
    }

    private void removeLeftoverTempFiles(List<Path> leftovers) {
        for (Path p : leftovers) {
            log.warn("Ignoring and removing {}, left over from an interrupted write that was never acknowledged", p);
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                log.warn("Could not remove {}: {}", p, e.toString());
            }
        }
    }

    @Override
    public String describe() {
        return file.toString();
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException ignored) {
            // closing the channel releases it too
        }
        closeQuietly();
    }

    private void closeQuietly() {
        try {
            lockChannel.close();
        } catch (IOException ignored) {
            // nothing more to do
        }
    }
}
