package io.ringd.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
     * are ignored (and removed) at the next start. A lock file keeps two
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
            throw new IllegalStateException("cannot use the data folder " + dir + ": " + e, e);
        }
        FileLock l;
        try {
            l = lockChannel.tryLock();
        } catch (IOException | OverlappingFileLockException e) {
            l = null;
        }
        if (l == null) {
            closeQuietly();
            throw new IllegalStateException("the data folder " + dir
                    + " is in use by another ringd process (lock file ringd.lock)");
        }
        this.lock = l;
    }

    @Override
    public Optional<PersistedState> load() {
        removeLeftoverTempFiles();
        if (!Files.exists(file)) {
            return Optional.empty();
        }
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

    @Override
    public void save(PersistedState state) {
        byte[] bytes = codec.encode(state);
        Path tmp = dir.resolve(STATE_FILE + "." + UUID.randomUUID() + TEMP_SUFFIX);
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer buf = ByteBuffer.wrap(bytes);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
                d.force(true);
            }
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // the next start removes it
            }
            throw new StoreUnavailableException("cannot write the ring state to " + file + ": " + e, e);
        }
    }

    private void removeLeftoverTempFiles() {
        try (DirectoryStream<Path> leftovers = Files.newDirectoryStream(dir, STATE_FILE + ".*" + TEMP_SUFFIX)) {
            for (Path p : leftovers) {
                log.warn("Ignoring and removing {}, left over from an interrupted write", p);
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            log.warn("Could not remove leftover temp files in {}: {}", dir, e.toString());
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
