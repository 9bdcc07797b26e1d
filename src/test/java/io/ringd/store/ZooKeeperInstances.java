package io.ringd.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Several ringd instances in this JVM on one ZooKeeper (each started with
 * {@link ZooKeeperStoreTest#start}), and the HTTP calls the tests make of
 * instance {@code i}: admin calls carry the token, answers are read as JSON.
 */
final class ZooKeeperInstances implements AutoCloseable {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    /** An answer: its status (-1 when none came) and its JSON body (null when it is none). */
    record Answer(int status, JsonNode body) {
    }

    final List<ConfigurableApplicationContext> instances = new ArrayList<>();
    private final String token;

    ZooKeeperInstances(String token) {
        this.token = token;
    }

    /** Starts one more instance on {@code connect} and {@code path}; its index. */
    int start(String connect, String path) {
        instances.add(ZooKeeperStoreTest.start(connect, path, token));
        return instances.size() - 1;
    }

    URI uri(int i, String path) {
        return URI.create("http://localhost:" + ((WebServerApplicationContext) instances.get(i)).getWebServer()
                .getPort() + path);
    }

    Answer send(int i, String method, String path, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(i, path)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token);
        b = body == null ? b.method(method, HttpRequest.BodyPublishers.noBody())
                : b.header("Content-Type", "application/json")
                        .method(method, HttpRequest.BodyPublishers.ofString(body));
        try {
            HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
            String text = r.body();
            return new Answer(r.statusCode(), text.isEmpty() || text.charAt(0) != '{' ? null : JSON.readTree(text));
        } catch (IOException e) {
            return new Answer(-1, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    JsonNode getJson(int i, String path) {
        Answer a = send(i, "GET", path, null);
        assertThat(a.status()).as("GET %s on instance %d: %s", path, i, a.body()).isEqualTo(200);
        return a.body();
    }

    /** The version instance {@code i} serves, or -1 when it does not answer. */
    long version(int i) {
        Answer a = send(i, "GET", "/ring", null);
        return a.status() == 200 ? a.body().get("version").asLong() : -1;
    }

    /** Whether instance {@code i}'s ring health is UP (loaded, and its store takes writes). */
    boolean writable(int i) {
        Answer a = send(i, "GET", "/actuator/health", null);
        return a.body() != null && a.body().path("components").path("ring").path("status").asString("").equals("UP");
    }

    /** The call, made again for up to 15 s until it answers 200 or 201; that answer's body. */
    JsonNode retry(int i, String method, String path, String body) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        Answer a;
        do {
            a = send(i, method, path, body);
            if (a.status() == 200 || a.status() == 201) {
                return a.body();
            }
            Thread.sleep(200);
        } while (System.nanoTime() < end);
        throw new AssertionError(method + " " + path + " through instance " + i + " kept failing: " + a);
    }

    HttpRequest reportRequest(int i, String prefix, String id, long version, String fingerprint) {
        return HttpRequest.newBuilder(uri(i, prefix + "/followers/" + id)).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(
                        "{\"version\":" + version + ",\"fingerprint\":\"" + fingerprint + "\"}")).build();
    }

    /** A follower's report to instance {@code i}: the status it answered. */
    int report(int i, String prefix, String id, long version, String fingerprint) throws Exception {
        return HTTP.send(reportRequest(i, prefix, id, version, fingerprint), HttpResponse.BodyHandlers.ofString())
                .statusCode();
    }

    static void awaitTrue(String what, BooleanSupplier condition, Duration within) throws InterruptedException {
        long end = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < end) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("not within " + within + ": " + what);
    }

    @Override
    public void close() {
        for (ConfigurableApplicationContext c : instances) {
            if (c != null && c.isActive()) {
                c.close();
            }
        }
    }
}
