package io.ringd.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import io.ringd.RingdApplication;
import io.ringd.client.RingClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A ramped join gated on the fleet (docs/ring.md section 24): one ringd (memory
 * store) and N {@link RingClient}s in this JVM on loopback, each a follower that
 * reports every version it verifies (the client's default). A tenth node joins
 * nine in steps of a 1 % budget, once per configuration: without a gate, and
 * gated on all N followers, at each minimum interval given. For each plan it
 * prints the time each step took beyond the interval (from one step's commit
 * to the next's, less {@code minStepInterval}): p50, p90, max. Run by
 * {@code bench/plans-gate.sh}; arguments: followers (100), intervals in ms
 * (0,500).
 */
public final class PlanGateBench {

    static final String TOKEN = "plan-gate-bench-admin-token-0123456789";
    static final JsonMapper JSON = JsonMapper.builder().build();

    public static void main(String[] args) throws Exception {
        int followers = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        long[] intervals = Arrays.stream((args.length > 1 ? args[1] : "0,500").split(",")).mapToLong(Long::parseLong)
                .toArray();
        String tick = args.length > 2 ? args[2] : "100ms";
        ConfigurableApplicationContext server = new SpringApplicationBuilder(RingdApplication.class).run(
                "--server.port=0", "--spring.main.banner-mode=off", "--ringd.store=memory",
                "--ringd.admin.token=" + TOKEN, "--ringd.watch.max-streams=" + (followers + 10),
                "--ringd.plans.tick=" + tick, "--logging.level.root=WARN");
        int port = ((WebServerApplicationContext) server).getWebServer().getPort();
        String base = "http://127.0.0.1:" + port;
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        List<RingClient> clients = new ArrayList<>();
        for (int c = 0; c < followers; c++) {
            clients.add(RingClient.builder(base).followerId("bench-follower-" + c).build());
        }
        System.out.printf("%d followers, ringd.plans.tick %s; a tenth node joins nine, 1 %% budget%n", followers, tick);
        System.out.println("| gate | minStepInterval | steps | beyond the interval per step: p50 | p90 | max "
                + "| whole plan |");
        System.out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
        int round = 0;
        for (long interval : intervals) {
            for (boolean gated : new boolean[] {false, true}) {
                round++;
                reset(http, base, round);
                awaitAll(clients, version(http, base));
                String gate = gated ? ",\"gate\":{\"convergedShare\":1,\"timeout\":\"PT1M\"}" : "";
                JsonNode plan = send(http, base, "POST", "/plans", "{\"changes\":[{\"op\":\"put\",\"id\":\"join-"
                        + round + "\",\"weight\":1}],\"maxMovedShare\":0.01,\"minStepInterval\":\"PT"
                        + interval / 1000.0 + "S\"" + gate + "}");
                String id = plan.get("id").asString();
                JsonNode done = plan;
                long end = System.nanoTime() + Duration.ofMinutes(5).toNanos();
                while (!done.get("state").asString().equals("done") && System.nanoTime() < end) {
                    Thread.sleep(50);
                    done = send(http, base, "GET", "/plans/" + id, null);
                }
                if (!done.get("state").asString().equals("done")) {
                    throw new IllegalStateException("the plan did not finish: " + done);
                }
                JsonNode steps = done.get("steps");
                double[] beyond = new double[steps.size() - 1];
                for (int k = 1; k < steps.size(); k++) {
                    Instant a = Instant.parse(steps.get(k - 1).get("committedAt").asString());
                    Instant b = Instant.parse(steps.get(k).get("committedAt").asString());
                    beyond[k - 1] = Duration.between(a, b).toNanos() / 1e6 - interval;
                }
                Arrays.sort(beyond);
                Instant first = Instant.parse(steps.get(0).get("committedAt").asString());
                Instant last = Instant.parse(steps.get(steps.size() - 1).get("committedAt").asString());
                System.out.printf("| %s | %d ms | %d | %.0f ms | %.0f ms | %.0f ms | %.2f s |%n",
                        gated ? "all " + followers + " followers" : "none", interval, steps.size(),
                        beyond[beyond.length / 2], beyond[(int) Math.ceil(beyond.length * 0.9) - 1],
                        beyond[beyond.length - 1], Duration.between(first, last).toMillis() / 1000.0);
            }
        }
        clients.forEach(RingClient::close);
        server.close();
        System.exit(0);
    }

    /** Nine nodes of weight 1, and nothing else. */
    static void reset(HttpClient http, String base, int round) throws Exception {
        StringBuilder changes = new StringBuilder();
        for (JsonNode n : send(http, base, "GET", "/nodes", null).get("nodes")) {
            changes.append(changes.length() == 0 ? "" : ",").append("{\"op\":\"remove\",\"id\":\"")
                    .append(n.get("id").asString()).append("\"}");
        }
        if (changes.length() > 0) {
            send(http, base, "POST", "/membership?force=true", "{\"changes\":[" + changes + "]}");
        }
        StringBuilder nine = new StringBuilder();
        for (int n = 1; n <= 9; n++) {
            nine.append(n == 1 ? "" : ",").append("{\"op\":\"put\",\"id\":\"node-").append(round).append('-')
                    .append(n).append("\",\"weight\":1}");
        }
        send(http, base, "POST", "/membership?force=true", "{\"changes\":[" + nine + "]}");
    }

    static long version(HttpClient http, String base) throws Exception {
        return send(http, base, "GET", "/ring", null).get("version").asLong();
    }

    static void awaitAll(List<RingClient> clients, long version) throws InterruptedException {
        for (RingClient c : clients) {
            if (!c.awaitVersion(version, Duration.ofSeconds(60))) {
                throw new IllegalStateException("a client did not reach version " + version);
            }
        }
    }

    static JsonNode send(HttpClient http, String base, String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + TOKEN);
        b = body == null ? b.method(method, HttpRequest.BodyPublishers.noBody())
                : b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new IllegalStateException(method + " " + path + ": " + r.statusCode() + " " + r.body());
        }
        return JSON.readTree(r.body());
    }
}
