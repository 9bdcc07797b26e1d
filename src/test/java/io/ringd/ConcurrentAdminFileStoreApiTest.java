package io.ringd;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link ConcurrentAdminChecks} on a server of its own with the file store
 * (every write forced to disk) in a new folder under target/.
 */
class ConcurrentAdminFileStoreApiTest extends ConcurrentAdminChecks {

    @DynamicPropertySource
    static void fileStore(DynamicPropertyRegistry registry) {
        registry.add("ringd.store", () -> "file");
        registry.add("ringd.data-dir", () -> {
            try {
                Files.createDirectories(Path.of("target"));
                return Files.createTempDirectory(Path.of("target"), "concurrent-file-store-").toString();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
