package io.ringd.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringd.ring.Change;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;
import io.ringd.state.HistoryDelta;
import io.ringd.state.PersistedState;
import io.ringd.state.RingHistory;
import io.ringd.state.RingSettings;
import io.ringd.store.StateCodec;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * The bytes of each wire form, pinned: field order, {@code 1.0} for a
 * whole weight, {@code null} zones written, absent optional fields left
 * out, commit times as each form keeps them. Any change to these strings
 * is a change to the protocol or the state format.
 */
class WireFormsTest {

    private static final String SETTINGS = "{\"hash\":\"md5\",\"vnodesPerWeight\":128,\"algorithm\":\"ring\","
            + "\"maglevTableSize\":65537}";
    private static final String FP = "f".repeat(64);

    @Test
    void aStateFile_isWrittenAsItAlwaysWas() {
        RingSettings murmur = new RingSettings("murmur3", 64, "ring", 1009);
        List<Node> nodes = List.of(Node.of("a", 1), new Node("c", 1.5, "eu-1a"));
        RingHistory history = new RingHistory(0, RingSettings.defaults(), List.of(), List.of(
                new HistoryDelta(1, List.of(Change.put(nodes.get(1)), Change.put(Node.of("a", 1)),
                        Change.put(Node.of("b", 2))), null, Instant.parse("2026-11-30T10:11:29.606Z"), FP),
                new HistoryDelta(2, List.of(Change.remove("b")), null, Instant.parse("2026-11-30T10:11:30Z"), null),
                new HistoryDelta(3, List.of(), murmur)), Instant.parse("2026-11-30T10:11:29Z"));
        PersistedState state = new PersistedState(3, murmur, nodes, history);

        String json = new String(new StateCodec().encode(state), StandardCharsets.UTF_8);

        assertThat(json).isEqualTo("{\"format\":1,\"version\":3,\"settings\":{\"hash\":\"murmur3\",\"vnodesPerWeight\":64,"
                + "\"algorithm\":\"ring\",\"maglevTableSize\":1009},\"nodes\":[{\"id\":\"a\",\"weight\":1.0,\"zone\":null},"
                + "{\"id\":\"c\",\"weight\":1.5,\"zone\":\"eu-1a\"}],\"history\":{\"baseVersion\":0,\"baseSettings\":"
                + SETTINGS + ",\"baseNodes\":[],\"baseCommittedAt\":\"2026-11-30T10:11:29Z\",\"deltas\":["
                + "{\"version\":1,\"changes\":[{\"id\":\"c\",\"weight\":1.5,\"zone\":\"eu-1a\",\"op\":\"put\"},"
                + "{\"id\":\"a\",\"weight\":1.0,\"zone\":null,\"op\":\"put\"},"
                + "{\"id\":\"b\",\"weight\":2.0,\"zone\":null,\"op\":\"put\"}],"
                + "\"committedAt\":\"2026-11-30T10:11:29.606Z\",\"fingerprint\":\"" + FP + "\"},"
                + "{\"version\":2,\"changes\":[{\"op\":\"remove\",\"id\":\"b\"}],\"committedAt\":\"2026-11-30T10:11:30Z\"},"
                + "{\"version\":3,\"changes\":[],\"settings\":{\"hash\":\"murmur3\",\"vnodesPerWeight\":64,"
                + "\"algorithm\":\"ring\",\"maglevTableSize\":1009}}]}}");
        assertThat(new StateCodec().decode(json.getBytes(StandardCharsets.UTF_8))).isEqualTo(state);
    }

    @Test
    void aStateFile_keepsTheIncarnationAfterTheVersion_andOneWithoutStillReads() {
        RingHistory history = RingHistory.startingAt(0, RingSettings.defaults(), List.of());
        PersistedState state = new PersistedState(0, RingSettings.defaults(), List.of(), history, "0123456789abcdef");
        String json = new String(new StateCodec().encode(state), StandardCharsets.UTF_8);
        assertThat(json).startsWith("{\"format\":1,\"version\":0,\"incarnation\":\"0123456789abcdef\",\"settings\":");
        assertThat(new StateCodec().decode(json.getBytes(StandardCharsets.UTF_8))).isEqualTo(state);
        String without = json.replace("\"incarnation\":\"0123456789abcdef\",", "");
        assertThat(new StateCodec().decode(without.getBytes(StandardCharsets.UTF_8)).incarnation()).isNull();
        assertThatThrownBy(() -> new StateCodec().decode(json.replace("0123456789abcdef", "0123456789ABCDEF")
                .getBytes(StandardCharsets.UTF_8))).hasMessageContaining("incarnation must be 16 lowercase hex");
    }

    @Test
    void theRingDocumentAndAChangeEvent_carryTheIncarnationAfterTheVersion() {
        HashRing ring = HashRing.of(RingConfig.defaults(), 7, List.of(Node.of("a", 1)));
        assertThat(WireJson.lenient().writeValueAsString(RingJson.of(ring, "0123456789abcdef",
                RingSettings.defaults().json(), null))).startsWith("{\"version\":7,\"incarnation\":\"0123456789abcdef\","
                        + "\"fingerprint\":\"" + ring.fingerprint() + "\",");
        assertThat(WireJson.lenient().writeValueAsString(ChangeEventJson.of(5, "0123456789abcdef", null, FP,
                List.of(Change.remove("b")), null))).isEqualTo("{\"version\":5,\"incarnation\":\"0123456789abcdef\","
                        + "\"committedAt\":null,\"fingerprint\":\"" + FP + "\",\"changes\":[{\"op\":\"remove\",\"id\":\"b\"}]}");
    }

    @Test
    void theRingDocument_isWrittenAsGetRingAnswersIt() {
        HashRing ring = HashRing.of(RingConfig.defaults(), 7, List.of(Node.of("a", 1), new Node("b", 2.5, "z1")));
        String json = WireJson.lenient().writeValueAsString(RingJson.of(ring, RingSettings.defaults().json(),
                Instant.parse("2026-11-30T10:11:29Z")));
        assertThat(json).isEqualTo("{\"version\":7,\"fingerprint\":\"" + ring.fingerprint() + "\",\"settings\":"
                + SETTINGS + ",\"nodes\":[{\"id\":\"a\",\"weight\":1.0,\"zone\":null},{\"id\":\"b\",\"weight\":2.5,"
                + "\"zone\":\"z1\"}],\"committedAt\":\"2026-11-30T10:11:29.000Z\"}");
        assertThat(WireJson.lenient().writeValueAsString(RingJson.of(HashRing.empty(), RingSettings.defaults().json(),
                null))).endsWith(",\"nodes\":[],\"committedAt\":null}");
    }

    @Test
    void aChangeEvent_isWrittenWithItsChangesByIdAndSettingsOnlyWhenTheyChanged() {
        ChangeEventJson changes = ChangeEventJson.of(5, "2026-11-30T10:11:29.606Z", FP,
                List.of(Change.remove("b"), Change.put(new Node("a", 2, "z2")), Change.put(Node.of("c", 1))), null);
        assertThat(WireJson.lenient().writeValueAsString(changes)).isEqualTo("{\"version\":5,\"committedAt\":"
                + "\"2026-11-30T10:11:29.606Z\",\"fingerprint\":\"" + FP + "\",\"changes\":["
                + "{\"op\":\"put\",\"id\":\"a\",\"weight\":2.0,\"zone\":\"z2\"},{\"op\":\"remove\",\"id\":\"b\"},"
                + "{\"op\":\"put\",\"id\":\"c\",\"weight\":1.0,\"zone\":null}]}");
        ChangeEventJson settings = ChangeEventJson.of(6, null, FP, List.of(), RingSettings.defaults().json());
        assertThat(WireJson.lenient().writeValueAsString(settings)).isEqualTo("{\"version\":6,\"committedAt\":null,"
                + "\"fingerprint\":\"" + FP + "\",\"changes\":[],\"settings\":" + SETTINGS + "}");
    }

    @Test
    void theLenientMapper_ignoresWhatItDoesNotUse_theStrictOneRefusesIt() {
        String node = "{\"id\":\"a\",\"weight\":1,\"colour\":\"red\"}";
        assertThat(WireJson.lenient().readValue(node, NodeJson.class).toNode()).isEqualTo(Node.of("a", 1));
        assertThatThrownBy(() -> WireJson.strict().readValue(node, NodeJson.class))
                .isInstanceOf(UnrecognizedPropertyException.class).hasMessageContaining("colour");
        assertThatThrownBy(() -> WireJson.lenient().readValue("{\"id\":\"a\",\"weight\":\"1\"}", NodeJson.class))
                .hasMessageContaining("weight");
    }

    @Test
    void aFormThatMakesNoValidValue_namesTheFieldAtFault() {
        assertThat(catchMessage(new NodeJson(null, 1.0, null), "nodes[2]")).isEqualTo("missing field \"id\" in nodes[2]");
        assertThat(catchMessage(new NodeJson("a b", 1.0, null), "nodes[2]")).startsWith("nodes[2].id: node id must be");
        assertThat(catchMessage(new NodeJson("a", 0.0, null), "nodes[2]"))
                .isEqualTo("nodes[2]: weight must be in (0, 10000]: 0.0");
        assertThat(catchMessage(new NodeJson("a", null, null), "")).isEqualTo("missing field \"weight\"");
    }

    private static String catchMessage(NodeJson n, String path) {
        try {
            n.toNode();
            throw new AssertionError("accepted " + n);
        } catch (WireException e) {
            return e.at(path);
        }
    }
}
