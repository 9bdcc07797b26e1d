package io.ringd.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.ringd.RealServerTest;
import io.ringd.ring.Handoff;
import io.ringd.ring.HashRing;
import tools.jackson.databind.JsonNode;

/**
 * {@link RingClient#handoff(String)} and {@link RingClient#readThrough}
 * against the real server: from the versions the client followed, the same
 * answers as {@code GET /route/{key}?handoff=true}, as far as those versions
 * go.
 */
@Timeout(120)
class RingClientHandoffApiTest extends RealServerTest {

    @Test
    void handoff_matchesTheServers_forTheVersionsItFollowed_andReadThroughFindsThePreviousOwner()
            throws Exception {
        reset();
        putAll("rh-a:1", "rh-b:1", "rh-c:1");
        long start = version();
        try (RingClient client = RingClient.builder("http://127.0.0.1:" + port).metrics(false).build()) {
            assertThat(client.awaitVersion(start, Duration.ofSeconds(20))).isTrue();
            HashRing before = client.ring();
            // a cache of three nodes, each holding the keys it owned at the start
            Map<String, Map<String, String>> caches = new HashMap<>();
            for (int i = 0; i < 300; i++) {
                String key = "item:" + i;
                caches.computeIfAbsent(before.route(key), n -> new HashMap<>()).put(key, "value " + i);
            }
            putNode("rh-d", 2, null);
            batch("[{\"op\":\"remove\",\"id\":\"rh-b\"},{\"op\":\"put\",\"id\":\"rh-e\",\"weight\":1}]");
            long last = version();
            assertThat(client.awaitVersion(last, Duration.ofSeconds(20))).isTrue();
            assertThat(client.handoffHistory().versions()).isEqualTo((int) (last - start + 1));
            assertThat(client.handoffHistory().oldestVersion()).isEqualTo(start);
            assertThat(client.handoffHistory().bytes()).isPositive();

            int fromPrevious = 0;
            for (int i = 0; i < 300; i++) {
                String key = "item:" + i;
                JsonNode server = fastGet("/route/" + enc(key) + "?handoff=true").get("handoff");
                Handoff mine = client.handoff(key);
                if (server.isNull() || server.get("movedAt").asLong() <= start) {
                    assertThat(mine).as(key + " " + server).isNull();
                } else {
                    assertThat(mine).as(key + " " + server).isNotNull();
                    assertThat(mine.movedAt()).isEqualTo(server.get("movedAt").asLong());
                    List<String> all = strings(server.get("previous"));
                    // the server knows versions from before the client started: the client's list is its prefix
                    assertThat(all.subList(0, mine.previous().size())).as(key).isEqualTo(mine.previous());
                    assertThat(mine.previous()).as(key).isNotEmpty();
                }
                ReadThrough<String> read = client.readThrough(key,
                        (node, k) -> caches.getOrDefault(node, Map.of()).get(k));
                assertThat(read.value()).as(key).isEqualTo("value " + i);
                assertThat(read.node()).isEqualTo(before.route(key));
                assertThat(read.owner()).as("the owner it was routed to").isEqualTo(client.route(key));
                assertThat(read.fromPrevious()).isEqualTo(!client.route(key).equals(before.route(key)));
                if (read.fromPrevious()) {
                    fromPrevious++;
                    assertThat(read.asked()).isGreaterThan(1);
                }
            }
            assertThat(fromPrevious).as("keys moved by the join and the removal").isPositive();
            ReadThrough<String> none = client.readThrough("nowhere", (node, k) -> null);
            assertThat(none.found()).isFalse();
            assertThat(none.value()).isNull();
        }
    }

    @Test
    void handoffOff_keepsOneVersion_andAnswersNull() throws Exception {
        reset();
        putAll("rh-x:1");
        try (RingClient client = RingClient.builder("http://127.0.0.1:" + port).metrics(false)
                .handoffWindow(Duration.ofMinutes(1), 0).build()) {
            assertThat(client.awaitVersion(version(), Duration.ofSeconds(20))).isTrue();
            putNode("rh-y", 1, null);
            assertThat(client.awaitVersion(version(), Duration.ofSeconds(20))).isTrue();
            assertThat(client.handoff("k")).isNull();
            assertThat(client.handoffHistory().versions()).isEqualTo(1);
        }
    }
}
