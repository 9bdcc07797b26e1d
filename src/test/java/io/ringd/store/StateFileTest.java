package io.ringd.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.ringd.ring.Change;
import io.ringd.ring.Node;
import io.ringd.state.PersistedState;
import io.ringd.state.RingService;
import io.ringd.state.RingSettings;
import io.ringd.state.SettingsPatch;
import io.ringd.state.StateUnreadableException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a state file may hold: every way it can be inconsistent is refused at
 * start-up with a message that names the file and the problem, and a file
 * that means the same ring is never refused for the order of its entries.
 */
class StateFileTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final long DEFAULT_SEED = 20_261_130L;

    @TempDir
    Path dir;

    /**
     * A genuine state (fingerprints and commit times as ringd records them):
     * v1 puts a, b; v2 puts c in a zone; v3 removes b; v4 changes settings;
     * v5 reweights a.
     */
    static PersistedState genuine() {
        MemoryRingStore store = new MemoryRingStore();
        RingService s = new RingService(store, RingSettings.defaults(), 128, List.of());
        s.apply(List.of(Change.put(Node.of("a", 1)), Change.put(Node.of("b", 2))), null);
        s.put(new Node("c", 1.5, "eu-1a"), null);
        s.remove("b", null);
        s.updateSettings(new SettingsPatch("murmur3", 64, null, null), null);
        s.put(Node.of("a", 3), null);
        return store.load().orElseThrow();
    }

    static ObjectNode genuineJson() {
        return (ObjectNode) JSON.readTree(new StateCodec().encode(genuine()));
    }

    static ObjectNode delta(ObjectNode doc, int i) {
        return (ObjectNode) doc.get("history").get("deltas").get(i);
    }

    static Arguments damage(String what, Consumer<ObjectNode> change, String message) {
        return Arguments.of(what, change, message);
    }

    static Stream<Arguments> inconsistencies() {
        return Stream.of(
                damage("a node listed twice", d -> ((ArrayNode) d.get("nodes")).add(d.get("nodes").get(0).deepCopy()),
                        "nodes: node \"a\" is listed twice"),
                damage("a node listed twice in the oldest kept version", d -> {
                    ObjectNode h = (ObjectNode) d.get("history");
                    h.putArray("baseNodes").add(node("x", 1)).add(node("x", 2));
                }, "history.baseNodes: node \"x\" is listed twice"),
                damage("a version that removes an absent node",
                        d -> ((ArrayNode) delta(d, 2).get("changes")).addObject().put("op", "remove").put("id", "zz"),
                        "version 3 removes node \"zz\", which is not a member of version 2"),
                damage("a version that puts a present node as it is, and nothing else", d -> {
                    ArrayNode changes = delta(d, 4).putArray("changes");
                    changes.add(node("c", 1.5).put("zone", "eu-1a").put("op", "put"));
                    d.putArray("nodes").add(node("a", 1)).add(node("c", 1.5).put("zone", "eu-1a"));
                }, "version 5 changes nothing"),
                damage("a version with no change at all",
                        d -> delta(d, 4).putArray("changes"), "version 5) has neither changes nor settings"),
                damage("a node changed twice in one version",
                        d -> ((ArrayNode) delta(d, 0).get("changes")).add(node("a", 4).put("op", "put")),
                        "node \"a\" is changed twice in one version"),
                damage("versions not contiguous", d -> ((ArrayNode) d.get("history").get("deltas")).remove(2),
                        "versions are not contiguous: version 3 is missing"),
                damage("a version listed twice", d -> ((ArrayNode) d.get("history").get("deltas"))
                        .add(delta(d, 1).deepCopy()), "version 2 is listed twice"),
                damage("history that ends before the state's version", d -> d.put("version", 6),
                        "history.deltas end at version 5 but the state is at version 6"),
                damage("an oldest kept version after the state's", d -> ((ObjectNode) d.get("history"))
                        .put("baseVersion", 9), "history.baseVersion 9 is after the state's version 5"),
                damage("members that the history does not replay to", d -> ((ObjectNode) d.get("nodes").get(0))
                        .put("weight", 2.0), "the history replays to node Node[id=a, weight=3.0"),
                damage("a member the history never adds", d -> ((ArrayNode) d.get("nodes")).add(node("q", 1)),
                        "the state has node Node[id=q"),
                damage("a member the history removed", d -> ((ArrayNode) d.get("nodes")).remove(0),
                        "the state has no node \"a\""),
                damage("settings the history does not replay to", d -> ((ObjectNode) d.get("settings"))
                        .put("vnodesPerWeight", 32), "the history replays to settings"),
                damage("a fingerprint that does not match the ring", d -> delta(d, 4).put("fingerprint",
                        "0".repeat(64)), "version 5 was stored with fingerprint " + "0".repeat(64)),
                damage("a malformed fingerprint", d -> delta(d, 1).put("fingerprint", "xyz"),
                        "history.deltas[1].fingerprint must be 64 lowercase hex digits"),
                damage("a commit time that is not one", d -> delta(d, 0).put("committedAt", "yesterday"),
                        "history.deltas[0].committedAt is not a commit time"),
                damage("an unknown hash", d -> ((ObjectNode) d.get("settings")).put("hash", "crc32"),
                        "settings.hash: hash must be one of"),
                damage("an unknown algorithm", d -> ((ObjectNode) d.get("history").get("baseSettings"))
                        .put("algorithm", "jump"), "history.baseSettings.algorithm: algorithm must be one of"),
                damage("a Maglev table size that is not prime", d -> ((ObjectNode) delta(d, 3).get("settings"))
                        .put("maglevTableSize", 65536), "history.deltas[3].settings.maglevTableSize: maglevTableSize "
                                + "must be a prime"),
                damage("a ketama flavor with another hash", d -> ((ObjectNode) d.get("settings"))
                        .put("ketamaFlavor", "libmemcached"), "settings.ketamaFlavor: ketamaFlavor applies with hash "
                                + "ketama only"),
                damage("an empty hashKey", d -> ((ObjectNode) d.get("nodes").get(0)).put("hashKey", ""),
                        "nodes[0].hashKey"),
                damage("points per weight out of range", d -> ((ObjectNode) d.get("settings"))
                        .put("vnodesPerWeight", 5000), "settings.vnodesPerWeight: vnodesPerWeight must be in [1, 4096]"),
                damage("a weight over the limit", d -> ((ObjectNode) d.get("nodes").get(0)).put("weight", 20000),
                        "nodes[0]: weight must be in (0, 10000]: 20000.0"),
                damage("a weight of zero", d -> ((ObjectNode) delta(d, 0).get("changes").get(0)).put("weight", 0),
                        "history.deltas[0].changes[0]: weight must be in (0, 10000]"),
                damage("a zone out of the alphabet", d -> ((ObjectNode) d.get("nodes").get(1)).put("zone", "eu 1a"),
                        "nodes[1]: zone must be 1 to 200 characters"),
                damage("an id out of the alphabet", d -> ((ObjectNode) delta(d, 2).get("changes").get(0))
                        .put("id", "b/1"), "history.deltas[2].changes[0].id: node id must be"),
                damage("a weight given as a string", d -> ((ObjectNode) d.get("nodes").get(0)).put("weight", "3"),
                        "nodes[0].weight must be a number"),
                damage("a version given as a string", d -> d.put("version", "5"),
                        "version must be an integer >= 0: \"5\""),
                damage("a negative version", d -> delta(d, 0).put("version", -1),
                        "history.deltas[0].version must be an integer >= 0: -1"),
                damage("an unknown change op", d -> ((ObjectNode) delta(d, 2).get("changes").get(0))
                        .put("op", "drop"), "history.deltas[2].changes[0].op must be \"put\" or \"remove\""),
                damage("an unknown field", d -> d.put("extra", true), "unknown field \"extra\""),
                damage("an unknown field in a node", d -> ((ObjectNode) d.get("nodes").get(0)).put("wieght", 1),
                        "unknown field \"wieght\" in nodes[0]"),
                damage("a missing field", d -> d.remove("nodes"), "missing field \"nodes\""),
                damage("a field of the wrong shape", d -> d.putObject("nodes"), "nodes must be a JSON array"),
                damage("a file from a newer format", d -> d.put("format", 2),
                        "format 2 was written by a newer ringd (this version reads format 1)"),
                damage("a file of an unknown older format", d -> d.put("format", 0), "unknown format 0"),
                damage("no format", d -> d.remove("format"), "missing field \"format\""),
                damage("more points than a ring may have", d -> {
                    ((ObjectNode) d.get("settings")).put("vnodesPerWeight", 4096);
                    ((ObjectNode) delta(d, 3).get("settings")).put("vnodesPerWeight", 4096);
                    ((ObjectNode) d.get("nodes").get(0)).put("weight", 10000);
                    ((ObjectNode) delta(d, 4).get("changes").get(0)).put("weight", 10000);
                    delta(d, 4).remove("fingerprint");
                }, "the ring may hold at most 4000000 points"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inconsistencies")
    void anInconsistentStateFile_isRefused_namingTheFileAndTheProblem(String what, Consumer<ObjectNode> damage,
            String message) throws Exception {
        ObjectNode doc = genuineJson();
        damage.accept(doc);
        Path file = write(doc.toString().getBytes(StandardCharsets.UTF_8));
        assertRefused(file, message);
    }

    static Stream<Arguments> unreadable() {
        String good = genuineJson().toString();
        return Stream.of(
                Arguments.of("an empty file", new byte[0], "the state is empty (0 bytes)"),
                Arguments.of("a truncated file", good.substring(0, good.length() / 2).getBytes(StandardCharsets.UTF_8),
                        "it ends early, truncated after"),
                Arguments.of("whitespace", "  \n".getBytes(StandardCharsets.UTF_8), "not a JSON object"),
                Arguments.of("garbage", new byte[] {0x1f, (byte) 0x8b, 8, 0, 0x42, (byte) 0xff}, "not valid JSON"),
                Arguments.of("a JSON array", "[]".getBytes(StandardCharsets.UTF_8), "not a JSON object"),
                Arguments.of("a field given twice", good.replaceFirst("\\{\"format\":1,",
                        "{\"format\":1,\"version\":4,").getBytes(StandardCharsets.UTF_8), "Duplicate"),
                Arguments.of("trailing garbage", (good + "}{").getBytes(StandardCharsets.UTF_8), "not valid JSON"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unreadable")
    void anUnreadableStateFile_isRefused_namingTheFileAndTheProblem(String what, byte[] bytes, String message)
            throws Exception {
        assertRefused(write(bytes), message);
    }

    @Test
    void theGenuineFile_loads() throws Exception {
        write(genuineJson().toString().getBytes(StandardCharsets.UTF_8));
        try (FileRingStore store = new FileRingStore(dir)) {
            RingService s = new RingService(store, RingSettings.defaults(), 128, List.of());
            assertThat(s.current().version()).isEqualTo(5);
            assertThat(s.current().nodes()).containsExactly(Node.of("a", 3), new Node("c", 1.5, "eu-1a"));
        }
    }

    /** A ring of ketama flavor libmemcached whose nodes have hashKeys loads as it was written. */
    @Test
    void flavorAndHashKeys_roundTrip() throws Exception {
        MemoryRingStore memory = new MemoryRingStore();
        RingService original = new RingService(memory, RingSettings.defaults(), 128, List.of());
        original.updateSettings(new SettingsPatch("ketama", null, null, null, "libmemcached"), null);
        original.apply(List.of(Change.put(new Node("cache-1", 2, null, "localhost/10.0.0.1:11211")),
                Change.put(Node.of("10.0.0.2:11211", 1))), null);
        original.put(new Node("cache-1", 2, "eu-1a", "/10.0.0.1:11211"), null);
        byte[] file = new StateCodec().encode(memory.load().orElseThrow());
        JsonNode doc = JSON.readTree(file);
        assertThat(doc.get("settings").get("ketamaFlavor").asString()).isEqualTo("libmemcached");
        assertThat(doc.get("nodes").get(1).get("hashKey").asString()).isEqualTo("/10.0.0.1:11211");
        assertThat(doc.get("nodes").get(0).has("hashKey")).as("left out for a node placed by its id").isFalse();
        write(file);
        try (FileRingStore store = new FileRingStore(dir)) {
            RingService s = new RingService(store, RingSettings.defaults(), 128, List.of());
            assertThat(s.current().nodes()).isEqualTo(original.current().nodes());
            assertThat(s.current().ring().config().ketamaFlavorName()).isEqualTo("libmemcached");
            assertThat(s.current().settings().ketamaFlavor()).isEqualTo("libmemcached");
            assertThat(s.current().fingerprint()).isEqualTo(original.current().fingerprint());
            assertThat(s.ringAt(2).fingerprint()).as("an older version, replayed")
                    .isEqualTo(original.ringAt(2).fingerprint());
        }
    }

    /** Ids that the API no longer takes for new nodes ({@code .} and {@code ..}) still load from a state file. */
    @Test
    void aFileWithDotIds_stillLoads() throws Exception {
        MemoryRingStore memory = new MemoryRingStore();
        RingService original = new RingService(memory, RingSettings.defaults(), 128, List.of());
        original.apply(List.of(Change.put(Node.of(".", 1)), Change.put(Node.of("..", 2)),
                Change.put(Node.of("a", 1))), null);
        write(new StateCodec().encode(memory.load().orElseThrow()));
        try (FileRingStore store = new FileRingStore(dir)) {
            RingService s = new RingService(store, RingSettings.defaults(), 128, List.of());
            assertThat(s.current().nodes()).containsExactly(Node.of(".", 1), Node.of("..", 2), Node.of("a", 1));
            assertThat(s.current().fingerprint()).isEqualTo(original.current().fingerprint());
            assertThat(s.remove("..", null).nodes()).containsExactly(Node.of(".", 1), Node.of("a", 1));
        }
    }

    /**
     * Random valid states, written with their members, kept versions, changes
     * and JSON fields shuffled: each loads to the same ring, versions, history
     * and fingerprints as the state it was written from.
     */
    @Test
    void aValidFile_loadsTheSame_whateverTheOrderOfItsEntries() throws Exception {
        String given = System.getProperty("ringd.seed");
        long seed = given == null || given.isBlank() ? DEFAULT_SEED : Long.parseLong(given.trim());
        System.out.println("aValidFile_loadsTheSame_whateverTheOrderOfItsEntries: seed " + seed
                + " (replay with -Dringd.seed=" + seed + ")");
        Random rnd = new Random(seed);
        for (int round = 0; round < 60; round++) {
            String at = "seed " + seed + " round " + round;
            MemoryRingStore memory = new MemoryRingStore();
            RingService original = new RingService(memory, RingSettings.defaults(), 101 + rnd.nextInt(3), List.of());
            randomWrites(original, rnd, 5 + rnd.nextInt(140));
            PersistedState state = memory.load().orElseThrow();
            JsonNode shuffled = shuffle(JSON.readTree(new StateCodec().encode(state)), rnd);
            Path folder = dir.resolve("round-" + round);
            Files.createDirectories(folder);
            Files.writeString(folder.resolve(FileRingStore.STATE_FILE), shuffled.toString());
            try (FileRingStore store = new FileRingStore(folder)) {
                RingService loaded = new RingService(store, RingSettings.defaults(), 128, List.of());
                assertThat(loaded.current().version()).as(at).isEqualTo(original.current().version());
                assertThat(loaded.current().fingerprint()).as(at).isEqualTo(original.current().fingerprint());
                assertThat(loaded.current().nodes()).as(at).isEqualTo(original.current().nodes());
                assertThat(loaded.current().settings()).as(at).isEqualTo(original.current().settings());
                assertThat(loaded.current().committedAt()).as(at).isEqualTo(original.current().committedAt());
                assertThat(loaded.oldestVersion()).as(at).isEqualTo(original.oldestVersion());
                for (long v = original.oldestVersion(); v <= original.current().version(); v++) {
                    assertThat(loaded.history().at(v)).as(at + " version " + v).isEqualTo(original.history().at(v));
                    assertThat(loaded.history().committedAt(v)).as(at + " version " + v)
                            .isEqualTo(original.history().committedAt(v));
                }
                long v = original.oldestVersion() + rnd.nextInt((int) (original.current().version()
                        - original.oldestVersion() + 1));
                assertThat(loaded.ringAt(v).fingerprint()).as(at + " version " + v)
                        .isEqualTo(original.ringAt(v).fingerprint());
            }
        }
    }

    /** Accepted writes of every kind: puts, reweights, removals, batches, settings. */
    static void randomWrites(RingService s, Random rnd, int count) {
        String[] hashes = {"md5", "murmur3", "sha256", "ketama"};
        for (int i = 0; i < count; i++) {
            List<Node> members = s.current().nodes();
            int kind = rnd.nextInt(10);
            if (kind < 4 || members.size() < 2) {
                String id = "n" + rnd.nextInt(40);
                s.put(new Node(id, 0.5 + rnd.nextInt(8) * 0.25, rnd.nextBoolean() ? null : "z" + rnd.nextInt(3),
                        rnd.nextInt(3) == 0 ? "host/" + id + ":" + rnd.nextInt(2) + " ключ" : null), null);
            } else if (kind < 6) {
                s.remove(members.get(rnd.nextInt(members.size())).id(), null);
            } else if (kind < 9) {
                List<Change> batch = new ArrayList<>();
                batch.add(Change.remove(members.get(rnd.nextInt(members.size())).id()));
                for (int j = 0; j < 1 + rnd.nextInt(4); j++) {
                    String id = "b" + i + "-" + j;
                    batch.add(Change.put(new Node(id, 1 + rnd.nextInt(3), "z" + rnd.nextInt(3))));
                }
                s.apply(batch, null);
            } else {
                String hash = hashes[rnd.nextInt(hashes.length)];
                String[] flavors = {null, "libketama", "libmemcached", "hashring"};
                s.updateSettings(new SettingsPatch(hash, 1 + rnd.nextInt(32), rnd.nextInt(5) == 0 ? "maglev" : "ring",
                        rnd.nextBoolean() ? 1009 : 65537, hash.equals("ketama") ? flavors[rnd.nextInt(4)] : null),
                        null);
            }
        }
    }

    /** The same document with every array of members, versions and changes, and every object's fields, shuffled. */
    static JsonNode shuffle(JsonNode n, Random rnd) {
        if (n.isObject()) {
            List<Map.Entry<String, JsonNode>> fields = new ArrayList<>(n.properties());
            Collections.shuffle(fields, rnd);
            ObjectNode o = JSON.createObjectNode();
            fields.forEach(f -> o.set(f.getKey(), shuffle(f.getValue(), rnd)));
            return o;
        }
        if (n.isArray()) {
            List<JsonNode> items = new ArrayList<>();
            n.forEach(i -> items.add(shuffle(i, rnd)));
            Collections.shuffle(items, rnd);
            ArrayNode a = JSON.createArrayNode();
            items.forEach(a::add);
            return a;
        }
        return n;
    }

    private static ObjectNode node(String id, double weight) {
        ObjectNode n = JSON.createObjectNode().put("id", id).put("weight", weight);
        n.putNull("zone");
        return n;
    }

    private Path write(byte[] bytes) throws Exception {
        Path file = dir.resolve(FileRingStore.STATE_FILE);
        Files.write(file, bytes);
        return file;
    }

    private void assertRefused(Path file, String message) throws Exception {
        byte[] before = Files.readAllBytes(file);
        Throwable refused;
        try (FileRingStore store = new FileRingStore(dir)) {
            refused = catchThrowable(() -> new RingService(store, RingSettings.defaults(), 128, List.of()));
        }
        assertThat(refused).isInstanceOf(StateUnreadableException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining(message);
        assertThat(((StateUnreadableException) refused).where()).isEqualTo(file.toString());
        assertThat(Files.readAllBytes(file)).as("the file is left as it was").isEqualTo(before);
    }
}
