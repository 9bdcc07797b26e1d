package io.ringd.rings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import io.ringd.RingdApplication;
import io.ringd.store.FileRingStore;
import io.ringd.store.FileRingStores;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Named rings on the file store (docs/ring.md section 22): a data folder
 * written before named rings is the ring {@code default}, answering as it
 * did; each named ring is kept in {@code rings/<name>} with its history across
 * restarts; a deleted one is gone for good; leftovers of a making or deleting
 * cut short are cleaned up, and a lost state file stops the start.
 */
class NamedRingsFileStoreTest {

    private static final String TOKEN = "fixture-admin-token-0123456789";
    private static final String FIXTURE = "/fixtures/before-named-rings/";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path dataDir;

    private ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(RingdApplication.class).run("--server.port=0",
                "--ringd.data-dir=" + dataDir, "--ringd.admin.token=" + TOKEN, "--spring.main.banner-mode=off",
                "--ringd.warmup.enabled=false", "--logging.level.io.ringd=WARN");
    }

    private static String fixture(String name) throws IOException {
        try (InputStream in = NamedRingsFileStoreTest.class.getResourceAsStream(FIXTURE + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        }
    }

    private static HttpResponse<String> send(ConfigurableApplicationContext app, String method, String path,
            String body) throws Exception {
        int port = ((WebServerApplicationContext) app).getWebServer().getPort();
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode get(ConfigurableApplicationContext app, String path) throws Exception {
        HttpResponse<String> r = send(app, "GET", path, null);
        assertThat(r.statusCode()).as("GET %s: %s", path, r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    @Test
    void aFolderWrittenBeforeNamedRings_isTheRingDefault_answeringAsItDid() throws Exception {
        Files.writeString(dataDir.resolve(FileRingStore.STATE_FILE), fixture("ring-state.json"));
        try (ConfigurableApplicationContext app = start()) {
            HttpResponse<String> ring = send(app, "GET", "/ring", null);
            assertThat(JSON.readTree(ring.body())).isEqualTo(JSON.readTree(fixture("ring.json")));
            assertThat(ring.headers().firstValue("ETag")).hasValue(fixture("etag.txt"));
            assertThat(ring.headers().firstValue("X-Ring-Name")).hasValue("default");
            assertThat(get(app, "/diff?from=1&to=4")).isEqualTo(JSON.readTree(fixture("diff-1-4.json")));
            assertThat(get(app, "/route/user%2F42?version=2")).isEqualTo(JSON.readTree(fixture("route-v2.json")));
            JsonNode rings = get(app, "/rings").get("rings");
            assertThat(rings).hasSize(1);
            assertThat(rings.get(0).get("name").asString()).isEqualTo("default");
            assertThat(rings.get(0).get("version").asLong()).isEqualTo(4);
        }
        assertThat(dataDir.resolve(FileRingStores.RINGS)).doesNotExist(); // nothing written without a named ring
    }

    @Test
    void namedRings_keepTheirHistoryAcrossRestarts_andADeletedOneIsGoneForGood() throws Exception {
        String sessions;
        String etag;
        try (ConfigurableApplicationContext app = start()) {
            assertThat(send(app, "POST", "/rings", "{\"name\":\"sessions\",\"settings\":{\"hash\":\"sha256\"}}")
                    .statusCode()).isEqualTo(201);
            assertThat(send(app, "POST", "/rings", "{\"name\":\"queue\"}").statusCode()).isEqualTo(201);
            assertThat(send(app, "PUT", "/rings/sessions/nodes/a", "{\"weight\":1}").statusCode()).isEqualTo(201);
            assertThat(send(app, "PUT", "/rings/sessions/nodes/b", "{\"weight\":2}").statusCode()).isEqualTo(201);
            assertThat(send(app, "PUT", "/nodes/x", "{\"weight\":1}").statusCode()).isEqualTo(201);
            HttpResponse<String> r = send(app, "GET", "/rings/sessions/ring", null);
            sessions = r.body();
            etag = r.headers().firstValue("ETag").orElseThrow();
        }
        assertThat(dataDir.resolve("rings/sessions/" + FileRingStore.STATE_FILE)).exists();
        assertThat(dataDir.resolve("rings/queue/" + FileRingStore.STATE_FILE)).exists();
        try (ConfigurableApplicationContext app = start()) {
            HttpResponse<String> r = send(app, "GET", "/rings/sessions/ring", null);
            assertThat(r.body()).isEqualTo(sessions);
            assertThat(r.headers().firstValue("ETag")).hasValue(etag);
            assertThat(get(app, "/rings/sessions/diff?from=0&to=2").get("movedShare").asDouble()).isEqualTo(1.0);
            assertThat(get(app, "/rings/queue/ring").get("version").asLong()).isZero();
            assertThat(get(app, "/ring").get("version").asLong()).isEqualTo(1);
            assertThat(send(app, "DELETE", "/rings/sessions", null).statusCode()).isEqualTo(204);
        }
        assertThat(dataDir.resolve("rings/sessions")).doesNotExist();
        try (ConfigurableApplicationContext app = start()) {
            assertThat(send(app, "GET", "/rings/sessions/ring", null).statusCode()).isEqualTo(404);
            HttpResponse<String> again = send(app, "POST", "/rings", "{\"name\":\"sessions\"}");
            assertThat(again.statusCode()).isEqualTo(201);
            assertThat(JSON.readTree(again.body()).get("version").asLong()).isZero();
            assertThat(get(app, "/rings").get("rings")).hasSize(3);
        }
    }

    @Test
    void leftoversOfAMakingOrDeletingCutShort_areRemoved_butALostStateFileStopsTheStart() throws Exception {
        Path rings = Files.createDirectories(dataDir.resolve(FileRingStores.RINGS));
        Files.createDirectories(rings.resolve("half-made"));
        Files.writeString(rings.resolve("half-made").resolve(FileRingStore.STATE_FILE + ".x.tmp"), "{\"form");
        Files.createDirectories(rings.resolve(".deleted-old-0123"));
        Files.writeString(rings.resolve(".deleted-old-0123").resolve(FileRingStore.STATE_FILE), "{}");
        try (ConfigurableApplicationContext app = start()) {
            assertThat(get(app, "/rings").get("rings")).hasSize(1);
        }
        assertThat(rings.resolve("half-made")).doesNotExist();
        assertThat(rings.resolve(".deleted-old-0123")).doesNotExist();

        // a named ring whose state file is gone but whose later version is in a temp file: never started empty
        try (ConfigurableApplicationContext app = start()) {
            assertThat(send(app, "POST", "/rings", "{\"name\":\"kept\"}").statusCode()).isEqualTo(201);
            assertThat(send(app, "PUT", "/rings/kept/nodes/a", "{\"weight\":1}").statusCode()).isEqualTo(201);
        }
        Path kept = rings.resolve("kept");
        Files.move(kept.resolve(FileRingStore.STATE_FILE), kept.resolve(FileRingStore.STATE_FILE + ".lost.tmp"));
        assertThatThrownBy(this::start).hasStackTraceContaining(kept.resolve(FileRingStore.STATE_FILE).toString());
        assertThat(kept.resolve(FileRingStore.STATE_FILE + ".lost.tmp")).exists();
    }
}
