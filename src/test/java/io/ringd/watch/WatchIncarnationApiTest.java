package io.ringd.watch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ringd.RealServerTest;
import tools.jackson.databind.JsonNode;

/**
 * The change stream and the ring's incarnation (docs/ring.md section 20): a
 * client that names another incarnation than the ring's (a history of its
 * own, with the same version numbers) starts with a snapshot, whatever
 * {@code Last-Event-ID} says; every event carries the incarnation.
 */
class WatchIncarnationApiTest extends RealServerTest {

    static final Duration WAIT = Duration.ofSeconds(10);
    static final String OTHER = "0123456789abcdef";

    private final List<EventStream> open = new ArrayList<>();

    @BeforeEach
    void threeVersions() {
        reset();
        putAll("i-a:1", "i-b:2", "i-c:1");
    }

    @AfterEach
    void closeStreams() {
        open.forEach(EventStream::close);
    }

    EventStream events(String query, String... headers) {
        EventStream s = EventStream.open(uri("/ring/events" + query), headers);
        open.add(s);
        return s;
    }

    String incarnation() {
        String i = getJson("/ring").get("incarnation").asString();
        assertThat(i).matches("[0-9a-f]{16}");
        return i;
    }

    @Test
    void anOldLastEventId_ofAnotherIncarnation_getsASnapshot_byHeaderOrQuery() throws Exception {
        String mine = incarnation();
        assertThat(mine).isNotEqualTo(OTHER);
        long old = version() - 2;
        List<EventStream> others = List.of(
                events("", "Last-Event-ID", Long.toString(old), "X-Ring-Incarnation", OTHER),
                events("?after=" + old + "&incarnation=" + OTHER),
                events("?incarnation=" + mine, "Last-Event-ID", Long.toString(old), "X-Ring-Incarnation", OTHER),
                events("", "Last-Event-ID", Long.toString(old), "X-Ring-Incarnation", "not-an-incarnation"));
        for (EventStream s : others) {
            assertThat(s.status).isEqualTo(200);
            EventStream.Event first = s.nextEvent(WAIT);
            assertThat(first.name()).isEqualTo("snapshot");
            JsonNode data = json(first.data());
            assertThat(data.get("version").asLong()).isEqualTo(version());
            assertThat(data.get("incarnation").asString()).isEqualTo(mine);
        }
    }

    @Test
    void theIncarnationParameter_isStrictLikeEveryOther() {
        assertProblem(httpGet("/ring/events?incarnation=" + OTHER + "&incarnation=" + OTHER), 400, "incarnation");
        assertProblem(httpGet("/ring/events?incarnations=" + OTHER), 400, "incarnations");
        assertThat(send(java.net.http.HttpRequest.newBuilder(uri("/ring/events?incarnation=" + OTHER))
                .method("HEAD", java.net.http.HttpRequest.BodyPublishers.noBody())).statusCode()).isEqualTo(200);
    }

    @Test
    void theRingsOwnIncarnation_resumesWithTheChangesAfterLastEventId_eachCarryingIt() throws Exception {
        String mine = incarnation();
        long old = version() - 2;
        for (EventStream s : List.of(
                events("", "Last-Event-ID", Long.toString(old), "X-Ring-Incarnation", mine),
                events("?incarnation=" + OTHER, "Last-Event-ID", Long.toString(old), "X-Ring-Incarnation", mine),
                events("?after=" + old + "&incarnation=" + mine))) {
            for (long v = old + 1; v <= old + 2; v++) {
                EventStream.Event e = s.nextEvent(WAIT);
                assertThat(e.name()).isEqualTo("change");
                assertThat(e.id()).isEqualTo(Long.toString(v));
                assertThat(json(e.data()).get("incarnation").asString()).isEqualTo(mine);
            }
        }
    }
}
