package io.ringd.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ringd.state.PlanStore;
import io.ringd.state.StateUnreadableException;
import io.ringd.state.StoreUnavailableException;

/**
 * A ring's planned changes in {@code plans.json} beside its state file,
 * written as the state is (temp file, force, atomic rename, force of the
 * folder), so a plan acknowledged is never lost. One process owns the data
 * folder (its lock), so the stamp is counted here.
 */
final class FilePlanStore implements PlanStore {

    static final String FILE = "plans.json";
    private static final String TEMP_SUFFIX = ".tmp";
    private static final Logger log = LoggerFactory.getLogger(FilePlanStore.class);

    private final Path dir;
    private final Path file;
    private long stamp;

    FilePlanStore(Path dir) {
        this.dir = dir;
        this.file = dir.resolve(FILE);
    }

    @Override
    public synchronized Stored read() {
        removeLeftovers();
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return new Stored(null, stamp);
        }
        try {
            return new Stored(Files.readAllBytes(file), stamp);
        } catch (IOException e) {
            throw new StateUnreadableException(file.toString(), "cannot read the plans file " + file + ": " + e, e);
        }
    }

    @Override
    public synchronized boolean write(byte[] document, long expected) {
        if (expected != stamp) {
            return false;
        }
        Path tmp = dir.resolve(FILE + "." + UUID.randomUUID() + TEMP_SUFFIX);
        boolean renamed = false;
        try {
            Files.createDirectories(dir);
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer buf = ByteBuffer.wrap(document);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            renamed = true;
            stamp++;
            try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
                d.force(true);
            }
            return true;
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // removed at the next read
            }
            throw new StoreUnavailableException("cannot write the plans to " + file + ": " + e, e, renamed);
        }
    }

    /** Temp files of a write cut short: never renamed, never acknowledged. */
    private void removeLeftovers() {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (DirectoryStream<Path> leftovers = Files.newDirectoryStream(dir, FILE + ".*" + TEMP_SUFFIX)) {
            for (Path p : leftovers) {
                log.warn("Removing {}, left over from an interrupted write of the plans", p);
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            log.warn("Could not remove leftover temp files of the plans in {}: {}", dir, e.toString());
        }
    }

    @Override
    public String describe() {
        return file.toString();
    }
}
