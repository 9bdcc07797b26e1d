package io.ringd.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringd.client.RingMessages.BadMessage;
import io.ringd.client.RingMessages.ChangeEvent;
import io.ringd.client.RingMessages.Snapshot;
import io.ringd.ring.Change;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;

class RingMessagesTest {

    private static final String SETTINGS = "{\"hash\":\"md5\",\"vnodesPerWeight\":128,\"algorithm\":\"ring\",\"maglevTableSize\":65537}";

    private static HashRing ring(long version, Node... nodes) {
        return HashRing.of(RingConfig.of("md5", 128), version, List.of(nodes));
    }

    @Test
    void aSnapshot_isReadAndBuilt_zonesNullOrAbsent_weightsAsAnyJsonNumber() throws BadMessage {
        HashRing expected = ring(7, new Node("a", 1, "eu-1a"), Node.of("b:11211", 2.5), Node.of("c", 1));
        Snapshot s = RingMessages.snapshot("{\"version\":7,\"fingerprint\":\"" + expected.fingerprint()
                + "\",\"settings\":" + SETTINGS + ",\"nodes\":[{\"id\":\"a\",\"weight\":1,\"zone\":\"eu-1a\"},"
                + "{\"id\":\"b:11211\",\"weight\":2.5,\"zone\":null},{\"id\":\"c\",\"weight\":1e0}],"
                + "\"committedAt\":\"2026-11-30T10:11:29.606Z\",\"somethingNew\":true}");
        assertThat(s.committedAt()).isEqualTo(Instant.parse("2026-11-30T10:11:29.606Z"));
        HashRing built = s.build();
        assertThat(built.version()).isEqualTo(7);
        assertThat(built.fingerprint()).isEqualTo(expected.fingerprint());
        assertThat(built.nodes()).isEqualTo(expected.nodes());
    }

    @Test
    void aSnapshotWithoutCommitTime_orWithAnUnreadableOne_isStillARing() throws BadMessage {
        String fp = ring(0).fingerprint();
        assertThat(RingMessages.snapshot("{\"version\":0,\"fingerprint\":\"" + fp + "\",\"settings\":" + SETTINGS
                + ",\"nodes\":[],\"committedAt\":null}").committedAt()).isNull();
        assertThat(RingMessages.snapshot("{\"version\":0,\"fingerprint\":\"" + fp + "\",\"settings\":" + SETTINGS
                + ",\"nodes\":[],\"committedAt\":\"yesterday\"}").committedAt()).isNull();
    }

    @Test
    void aSnapshotWhoseFingerprintIsNotTheLibrarys_doesNotBuild() throws BadMessage {
        Snapshot s = RingMessages.snapshot("{\"version\":1,\"fingerprint\":\"" + "ab".repeat(32) + "\",\"settings\":"
                + SETTINGS + ",\"nodes\":[{\"id\":\"a\",\"weight\":1}]}");
        assertThatThrownBy(s::build).isInstanceOf(BadMessage.class).hasMessageContaining("fingerprint mismatch at version 1");
    }

    @Test
    void settingsTheLibraryLacks_doNotBuild() throws BadMessage {
        Snapshot s = RingMessages.snapshot("{\"version\":1,\"fingerprint\":\"" + "ab".repeat(32) + "\",\"settings\":"
                + "{\"hash\":\"crc32\",\"vnodesPerWeight\":128},\"nodes\":[]}");
        assertThatThrownBy(s::build).isInstanceOf(BadMessage.class).hasMessageContaining("crc32");
    }

    @Test
    void malformedMessages_areBadMessages_namingWhatIsWrong() {
        String fp = "\"fingerprint\":\"" + "0".repeat(64) + "\"";
        assertBad("[]", "not a JSON object");
        assertBad("{\"version\":", "not JSON");
        assertBad("{\"version\":-1," + fp + ",\"settings\":" + SETTINGS + ",\"nodes\":[]}", "version");
        assertBad("{\"version\":\"3\"," + fp + ",\"settings\":" + SETTINGS + ",\"nodes\":[]}", "version");
        assertBad("{\"version\":1.5," + fp + ",\"settings\":" + SETTINGS + ",\"nodes\":[]}", "version");
        assertBad("{\"version\":1,\"fingerprint\":\"ABC\",\"settings\":" + SETTINGS + ",\"nodes\":[]}", "fingerprint");
        assertBad("{\"version\":1," + fp + ",\"nodes\":[]}", "settings");
        assertBad("{\"version\":1," + fp + ",\"settings\":{\"hash\":\"md5\",\"vnodesPerWeight\":\"128\"},\"nodes\":[]}",
                "vnodesPerWeight");
        assertBad("{\"version\":1," + fp + ",\"settings\":" + SETTINGS + "}", "nodes");
        assertBad("{\"version\":1," + fp + ",\"settings\":" + SETTINGS + ",\"nodes\":[{\"id\":\"a\",\"weight\":\"1\"}]}",
                "weight");
        assertBad("{\"version\":1," + fp + ",\"settings\":" + SETTINGS + ",\"nodes\":[{\"id\":\"a b\",\"weight\":1}]}",
                "node id");
        assertBad("{\"version\":1," + fp + ",\"settings\":" + SETTINGS + ",\"nodes\":[{\"id\":\"a\",\"weight\":0}]}",
                "weight must be in (0, 10000]");
        assertBad("{\"version\":1," + fp + ",\"settings\":" + SETTINGS
                + ",\"nodes\":[{\"id\":\"a\",\"weight\":1,\"zone\":7}]}", "zone");
        assertThatThrownBy(() -> RingMessages.change("{\"version\":1," + fp + ",\"changes\":[{\"op\":\"move\",\"id\":\"a\"}]}"))
                .isInstanceOf(BadMessage.class).hasMessageContaining("move");
        assertThatThrownBy(() -> RingMessages.change("{\"version\":1," + fp + ",\"changes\":[{\"op\":\"remove\"}]}"))
                .isInstanceOf(BadMessage.class).hasMessageContaining("id");
        assertThatThrownBy(() -> RingMessages.change("{\"version\":1," + fp + "}"))
                .isInstanceOf(BadMessage.class).hasMessageContaining("changes");
    }

    private static void assertBad(String json, String mentions) {
        assertThatThrownBy(() -> RingMessages.snapshot(json)).as(json).isInstanceOf(BadMessage.class)
                .hasMessageContaining(mentions);
    }

    @Test
    void aChange_isAppliedToThePreviousVersion_andChecked() throws BadMessage {
        HashRing v4 = ring(4, new Node("a", 1, "z1"), Node.of("b", 1));
        HashRing v5 = ring(5, new Node("a", 2, "z2"), Node.of("c", 1));
        ChangeEvent c = RingMessages.change("{\"version\":5,\"committedAt\":\"2026-11-30T10:11:29.606Z\",\"fingerprint\":\""
                + v5.fingerprint() + "\",\"changes\":[{\"op\":\"put\",\"id\":\"a\",\"weight\":2.0,\"zone\":\"z2\"},"
                + "{\"op\":\"remove\",\"id\":\"b\"},{\"op\":\"put\",\"id\":\"c\",\"weight\":1,\"zone\":null}]}");
        assertThat(c.settings()).isNull();
        assertThat(c.changes()).containsExactly(Change.put(new Node("a", 2, "z2")), Change.remove("b"),
                Change.put(Node.of("c", 1)));
        HashRing next = c.applyTo(v4);
        assertThat(next.version()).isEqualTo(5);
        assertThat(next.fingerprint()).isEqualTo(v5.fingerprint());
        assertThat(next.nodes()).isEqualTo(v5.nodes());
    }

    @Test
    void aChangeOfSettings_alone_withMembers_orChangingNothingTheRingIsMadeOf_landsAtItsVersion() throws BadMessage {
        HashRing v1 = ring(1, Node.of("a", 1), Node.of("b", 2));
        HashRing v2 = HashRing.of(RingConfig.of("murmur3", 64), 2, v1.nodes());
        ChangeEvent settings = RingMessages.change("{\"version\":2,\"fingerprint\":\"" + v2.fingerprint()
                + "\",\"changes\":[],\"settings\":{\"hash\":\"murmur3\",\"vnodesPerWeight\":64,\"algorithm\":\"ring\","
                + "\"maglevTableSize\":65537}}");
        HashRing a = settings.applyTo(v1);
        assertThat(a.version()).isEqualTo(2);
        assertThat(a.config()).isEqualTo(v2.config());
        assertThat(a.fingerprint()).isEqualTo(v2.fingerprint());

        HashRing v3 = HashRing.of(RingConfig.of("sha256", 32), 3, List.of(Node.of("a", 1), Node.of("c", 1)));
        HashRing b = RingMessages.change("{\"version\":3,\"fingerprint\":\"" + v3.fingerprint()
                + "\",\"changes\":[{\"op\":\"put\",\"id\":\"c\",\"weight\":1},{\"op\":\"remove\",\"id\":\"b\"}],"
                + "\"settings\":{\"hash\":\"sha256\",\"vnodesPerWeight\":32,\"algorithm\":\"ring\",\"maglevTableSize\":65537}}")
                .applyTo(a);
        assertThat(b.version()).isEqualTo(3);
        assertThat(b.fingerprint()).isEqualTo(v3.fingerprint());

        HashRing c = RingMessages.change("{\"version\":4,\"fingerprint\":\"" + v3.fingerprint()
                + "\",\"changes\":[],\"settings\":{\"hash\":\"sha256\",\"vnodesPerWeight\":32,\"algorithm\":\"ring\","
                + "\"maglevTableSize\":1009}}").applyTo(b);
        assertThat(c.version()).isEqualTo(4);
        assertThat(c.fingerprint()).isEqualTo(v3.fingerprint());
    }

    @Test
    void aChangesPlanMark_isItsPlanStep_andNoneWithoutOne() throws BadMessage {
        HashRing v1 = ring(1, Node.of("a", 1));
        HashRing v2 = ring(2, Node.of("a", 1), Node.of("b", 0.5));
        String head = "{\"version\":2,\"fingerprint\":\"" + v2.fingerprint()
                + "\",\"changes\":[{\"op\":\"put\",\"id\":\"b\",\"weight\":0.5}]";
        ChangeEvent step = RingMessages.change(head + ",\"plan\":{\"id\":\"3f9a2c01b7d4\",\"step\":2,\"of\":5}}");
        assertThat(step.plan()).isEqualTo(new PlanStep("3f9a2c01b7d4", 2, 5));
        assertThat(step.plan()).hasToString("plan 3f9a2c01b7d4 step 2 of 5");
        assertThat(step.applyTo(v1).fingerprint()).isEqualTo(v2.fingerprint());
        ChangeEvent last = RingMessages.change(head + ",\"plan\":{\"of\":3,\"step\":3,\"id\":\"p\",\"more\":[1]}}");
        assertThat(last.plan()).isEqualTo(new PlanStep("p", 3, 3));
        assertThat(last.plan().isLast()).isTrue();
        assertThat(last.plan().isFirst()).isFalse();

        assertThat(RingMessages.change(head + "}").plan()).as("no field: no plan's step").isNull();
        assertThat(RingMessages.change(head + ",\"plan\":null}").plan()).isNull();
    }

    @Test
    void aPlanMarkThatIsNotAPlanStep_isIgnored_andTheChangeStillApplies() throws BadMessage {
        HashRing v1 = ring(1, Node.of("a", 1));
        HashRing v2 = ring(2, Node.of("a", 1), Node.of("b", 0.5));
        String head = "{\"version\":2,\"fingerprint\":\"" + v2.fingerprint()
                + "\",\"changes\":[{\"op\":\"put\",\"id\":\"b\",\"weight\":0.5}],\"plan\":";
        List<String> notSteps = List.of("\"3f9a2c01b7d4\"", "7", "true", "[]", "[{\"id\":\"p\",\"step\":1,\"of\":2}]",
                "{}", "{\"id\":\"p\",\"step\":1}", "{\"step\":1,\"of\":2}", "{\"id\":null,\"step\":1,\"of\":2}",
                "{\"id\":\"\",\"step\":1,\"of\":2}", "{\"id\":7,\"step\":1,\"of\":2}",
                "{\"id\":{\"x\":1},\"step\":1,\"of\":2}", "{\"id\":\"p\",\"step\":\"1\",\"of\":2}",
                "{\"id\":\"p\",\"step\":1.5,\"of\":2}", "{\"id\":\"p\",\"step\":1.0,\"of\":2}",
                "{\"id\":\"p\",\"step\":0,\"of\":2}", "{\"id\":\"p\",\"step\":-1,\"of\":2}",
                "{\"id\":\"p\",\"step\":3,\"of\":2}", "{\"id\":\"p\",\"step\":1,\"of\":4294967297}",
                "{\"id\":\"p\",\"step\":1,\"of\":null}", "{\"id\":\"p\",\"step\":true,\"of\":2}");
        for (String plan : notSteps) {
            ChangeEvent c = RingMessages.change(head + plan + "}");
            assertThat(c.plan()).as(plan).isNull();
            assertThat(c.version()).isEqualTo(2);
            assertThat(c.applyTo(v1).fingerprint()).as(plan).isEqualTo(v2.fingerprint());
        }
        assertThatThrownBy(() -> RingMessages.change(head + "{\"id\":\"p\"")).as("still JSON, or not read at all")
                .isInstanceOf(BadMessage.class).hasMessageContaining("not JSON");
    }

    @Test
    void aPlanStep_checksItsParts() {
        assertThatThrownBy(() -> new PlanStep("", 1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PlanStep(null, 1, 1)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new PlanStep("p", 0, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[1, 1]: 0");
        assertThatThrownBy(() -> new PlanStep("p", 3, 2)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new PlanStep("p", 1, 1).isFirst()).isTrue();
    }

    @Test
    void aChangeTheRingCannotTake_isABadMessage() throws BadMessage {
        HashRing v1 = ring(1, Node.of("a", 1));
        ChangeEvent removesAbsent = RingMessages.change("{\"version\":2,\"fingerprint\":\"" + v1.fingerprint()
                + "\",\"changes\":[{\"op\":\"remove\",\"id\":\"zz\"}]}");
        assertThatThrownBy(() -> removesAbsent.applyTo(v1)).isInstanceOf(BadMessage.class)
                .hasMessageContaining("cannot apply version 2").hasMessageContaining("zz");
    }
}
