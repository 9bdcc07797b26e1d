package io.ringd.store;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

import io.ringd.ring.Change;
import io.ringd.ring.Node;
import io.ringd.state.HistoryDelta;
import io.ringd.state.PersistedState;
import io.ringd.state.RingHistory;
import io.ringd.state.RingSettings;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The stored form of a ring's state: UTF-8 JSON, {@code "format": 1}. Shared
 * by every store so that state moves between them unchanged. Commit times
 * ({@code committedAt}, {@code baseCommittedAt}) and the fingerprints of kept
 * versions are optional, so state written before they were kept still loads.
 */
public final class StateCodec {

    /** The format this codec writes and the only one it reads. */
    public static final int FORMAT = 1;

    private final JsonMapper json = JsonMapper.builder().build();

    public byte[] encode(PersistedState s) {
        ObjectNode root = json.createObjectNode();
        root.put("format", FORMAT);
        root.put("version", s.version());
        root.set("settings", settings(s.settings()));
        root.set("nodes", nodes(s.nodes()));
        RingHistory h = s.history();
        ObjectNode history = root.putObject("history");
        history.put("baseVersion", h.baseVersion());
        history.set("baseSettings", settings(h.baseSettings()));
        history.set("baseNodes", nodes(h.baseNodes()));
        if (h.baseCommittedAt() != null) {
            history.put("baseCommittedAt", h.baseCommittedAt().toString());
        }
        ArrayNode deltas = history.putArray("deltas");
        for (HistoryDelta d : h.deltas()) {
            ObjectNode o = deltas.addObject();
            o.put("version", d.version());
            ArrayNode changes = o.putArray("changes");
            for (Change c : d.changes()) {
                if (c instanceof Change.Put p) {
                    ObjectNode n = node(p.node());
                    n.put("op", "put");
                    changes.add(n);
                } else {
                    changes.addObject().put("op", "remove").put("id", c.id());
                }
            }
            if (d.settings() != null) {
                o.set("settings", settings(d.settings()));
            }
            if (d.committedAt() != null) {
                o.put("committedAt", d.committedAt().toString());
            }
            if (d.fingerprint() != null) {
                o.put("fingerprint", d.fingerprint());
            }
        }
        return json.writeValueAsBytes(root);
    }

    /**
     * Reads a stored state.
     *
     * @throws IllegalArgumentException saying what is wrong with it
     */
    public PersistedState decode(byte[] bytes) {
        JsonNode root;
        try {
            root = json.readTree(bytes);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not valid JSON: " + e.getMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("not a JSON object");
        }
        int format = required(root, "format").asInt();
        if (format != FORMAT) {
            throw new IllegalArgumentException("unknown format " + format + " (this version reads " + FORMAT + ")");
        }
        JsonNode h = required(root, "history");
        List<HistoryDelta> deltas = new ArrayList<>();
        for (JsonNode d : required(h, "deltas")) {
            List<Change> changes = new ArrayList<>();
            for (JsonNode c : required(d, "changes")) {
                String op = required(c, "op").asString();
                switch (op) {
                    case "put" -> changes.add(Change.put(readNode(c)));
                    case "remove" -> changes.add(Change.remove(required(c, "id").asString()));
                    default -> throw new IllegalArgumentException("unknown change op: " + op);
                }
            }
            JsonNode s = d.get("settings");
            JsonNode fingerprint = d.get("fingerprint");
            deltas.add(new HistoryDelta(required(d, "version").asLong(), changes,
                    s == null || s.isNull() ? null : readSettings(s), instant(d.get("committedAt")),
                    fingerprint == null || fingerprint.isNull() ? null : fingerprint.asString()));
        }
        RingHistory history = new RingHistory(required(h, "baseVersion").asLong(),
                readSettings(required(h, "baseSettings")), readNodes(required(h, "baseNodes")), deltas,
                instant(h.get("baseCommittedAt")));
        return new PersistedState(required(root, "version").asLong(), readSettings(required(root, "settings")),
                readNodes(required(root, "nodes")), history);
    }

    private ObjectNode settings(RingSettings s) {
        ObjectNode o = json.createObjectNode();
        o.put("hash", s.hash());
        o.put("vnodesPerWeight", s.vnodesPerWeight());
        o.put("algorithm", s.algorithm());
        o.put("maglevTableSize", s.maglevTableSize());
        return o;
    }

    private ArrayNode nodes(List<Node> nodes) {
        ArrayNode a = json.createArrayNode();
        nodes.forEach(n -> a.add(node(n)));
        return a;
    }

    private ObjectNode node(Node n) {
        ObjectNode o = json.createObjectNode();
        o.put("id", n.id());
        o.put("weight", n.weight());
        if (n.zone() == null) {
            o.putNull("zone");
        } else {
            o.put("zone", n.zone());
        }
        return o;
    }

    private static RingSettings readSettings(JsonNode s) {
        return new RingSettings(required(s, "hash").asString(), required(s, "vnodesPerWeight").asInt(),
                required(s, "algorithm").asString(), required(s, "maglevTableSize").asInt());
    }

    private static List<Node> readNodes(JsonNode a) {
        List<Node> out = new ArrayList<>();
        for (JsonNode n : a) {
            out.add(readNode(n));
        }
        return out;
    }

    private static Node readNode(JsonNode n) {
        JsonNode zone = n.get("zone");
        return new Node(required(n, "id").asString(), required(n, "weight").asDouble(),
                zone == null || zone.isNull() ? null : zone.asString());
    }

    /** An optional commit time (absent in state written before commit times were kept). */
    private static Instant instant(JsonNode n) {
        if (n == null || n.isNull()) {
            return null;
        }
        try {
            return Instant.parse(n.asString());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("not a commit time: " + n);
        }
    }

    private static JsonNode required(JsonNode parent, String field) {
        JsonNode v = parent.get(field);
        if (v == null || v.isNull()) {
            throw new IllegalArgumentException("missing field \"" + field + "\"");
        }
        return v;
    }
}
