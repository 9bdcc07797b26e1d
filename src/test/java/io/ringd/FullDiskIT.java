package io.ringd;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import io.ringd.store.FileRingStore;
import tools.jackson.databind.JsonNode;

/**
 * A write that finds no room on the disk: the real jar runs with its file
 * size limit (RLIMIT_FSIZE, {@code ulimit -f}) at 64 KiB. The JVM ignores
 * SIGXFSZ, so a state file that would grow past it fails to write as on a
 * full disk (EFBIG, where a full disk gives ENOSPC, through the same path):
 * the write is a 503 problem, the ring and the state file are unchanged, no
 * temp file is left and lookups go on; the next write that has room succeeds,
 * and a restart after SIGKILL serves it.
 *
 * <p>Linux only: the limit is set with {@code sh -c "ulimit -f"} and the
 * failed write is the kernel's EFBIG for a process past RLIMIT_FSIZE, which
 * other systems give differently or not at all.
 */
@Timeout(180)
@EnabledOnOs(value = OS.LINUX, disabledReason = "sets RLIMIT_FSIZE with sh's ulimit -f and relies on Linux's EFBIG")
@EnabledIfSystemProperty(named = "ringd.jar", matches = ".+",
        disabledReason = "run by failsafe in verify, once package has built the jar (pom.xml sets the property)")
class FullDiskIT {

    private static final String TOKEN = "full-disk-test-admin-token-0123456789";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** 64 KiB in 512-byte blocks. */
    private static final long ROOM_BLOCKS = 128;

    @TempDir
    Path dataDir;

    @Test
    void aWriteWithNoRoomOnTheDisk_is503_andChangesNothing_andTheNextWriteWithRoomSucceeds() throws Exception {
        Path state = dataDir.resolve(FileRingStore.STATE_FILE);
        long acknowledged;
        try (RingdProcess ringd = RingdProcess.startWithFileSizeLimit(ROOM_BLOCKS, dataDir, TOKEN,
                CrashRecoveryIT.CHILD_JVM, List.of())) {
            int port = ringd.awaitStarted(90);
            assertThat(send(port, "POST", "/membership", "{\"changes\":[{\"op\":\"put\",\"id\":\"a\",\"weight\":1},"
                    + "{\"op\":\"put\",\"id\":\"b\",\"weight\":2,\"zone\":\"eu-1b\"}]}").statusCode()).isEqualTo(200);
            JsonNode before = getJson(port, "/ring");
            byte[] file = Files.readAllBytes(state);

            // batches whose state file needs more than the room left
            for (int nodes : new int[] {200, 400}) {
                HttpResponse<String> r = send(port, "POST", "/membership", bigBatch(nodes));
                assertThat(r.statusCode()).as("a batch of %d nodes: %s", nodes, r.body()).isEqualTo(503);
                assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
                JsonNode problem = Membership.JSON.readTree(r.body());
                assertThat(problem.get("type").asString()).isEqualTo("urn:ringd:problem:store-unavailable");
                assertThat(problem.get("detail").asString()).contains("not applied");
                assertThat(getJson(port, "/ring")).as("the ring is unchanged").isEqualTo(before);
                assertThat(Files.readAllBytes(state)).as("the state file is unchanged").isEqualTo(file);
                assertThat(tempFiles()).as("no temp file is left").isEmpty();
                assertThat(getJson(port, "/route?key=user:42").get("version").asLong()).as("lookups go on")
                        .isEqualTo(before.get("version").asLong());
            }
            assertThat(ringd.log()).contains("File too large");

            // a write that has room: acknowledged, and durable
            HttpResponse<String> r = send(port, "PUT", "/nodes/c", "{\"weight\":1,\"zone\":\"eu-1c\"}");
            assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
            acknowledged = Membership.JSON.readTree(r.body()).get("version").asLong();
            assertThat(acknowledged).isEqualTo(before.get("version").asLong() + 1);
            assertThat(ringd.kill()).isEqualTo(RingdProcess.KILLED);
        }
        try (RingdProcess ringd = RingdProcess.start(dataDir, TOKEN, CrashRecoveryIT.CHILD_JVM, List.of())) {
            int port = ringd.awaitStarted(90);
            JsonNode after = getJson(port, "/ring");
            assertThat(after.get("version").asLong()).isEqualTo(acknowledged);
            assertThat(after.get("nodes").findValuesAsString("id")).containsExactly("a", "b", "c");
        }
    }

    /** A batch adding {@code count} nodes with long ids: about 0.4 KB of state file each. */
    private static String bigBatch(int count) {
        StringBuilder b = new StringBuilder("{\"changes\":[");
        for (int i = 0; i < count; i++) {
            b.append(i == 0 ? "" : ",").append("{\"op\":\"put\",\"id\":\"").append("x".repeat(150)).append(i)
                    .append("\",\"weight\":1,\"zone\":\"eu-1a\"}");
        }
        return b.append("]}").toString();
    }

    private List<String> tempFiles() throws Exception {
        try (Stream<Path> files = Files.list(dataDir)) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".tmp")).toList();
        }
    }

    private static HttpResponse<String> send(int port, String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + TOKEN);
        b = body == null ? b.method(method, HttpRequest.BodyPublishers.noBody())
                : b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode getJson(int port, String path) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("GET %s: %s", path, r.body()).isEqualTo(200);
        return Membership.JSON.readTree(r.body());
    }
}
