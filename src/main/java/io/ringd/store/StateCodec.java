package io.ringd.store;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import io.ringd.ring.Change;
import io.ringd.ring.Node;
import io.ringd.state.HistoryDelta;
import io.ringd.state.InvalidInputException;
import io.ringd.state.PersistedState;
import io.ringd.state.RingHistory;
import io.ringd.state.RingSettings;
import io.ringd.state.SettingsPatch;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
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

    /*
     * Reading is strict and order-blind. Every value is checked where it is
     * read, and a refusal names it by its path in the document
     * ("history.deltas[3].changes[0].weight"): a field missing, of the wrong
     * JSON type, unknown, or given twice; a value out of the contract's
     * limits (ids, weights, zones, settings); a node listed twice; versions
     * that are not contiguous. What order does not mean is not held against
     * a file: JSON fields come in any order, members in any order (they are
     * sorted by id), kept versions in any order (sorted by version), changes
     * of one version in any order (a version's changes never name an id
     * twice). Whether the history replays to the state is checked by
     * PersistedState.checkConsistent.
     */

    /** The format this codec writes and the only one it reads. */
    public static final int FORMAT = 1;

    private static final Pattern FINGERPRINT = Pattern.compile("[0-9a-f]{64}");
    private static final Set<String> ROOT_FIELDS = Set.of("format", "version", "settings", "nodes", "history");
    private static final Set<String> HISTORY_FIELDS = Set.of("baseVersion", "baseSettings", "baseNodes",
            "baseCommittedAt", "deltas");
    private static final Set<String> DELTA_FIELDS = Set.of("version", "changes", "settings", "committedAt",
            "fingerprint");
    private static final Set<String> SETTINGS_FIELDS = Set.of("hash", "vnodesPerWeight", "algorithm",
            "maglevTableSize");
    private static final Set<String> NODE_FIELDS = Set.of("id", "weight", "zone");
    private static final Set<String> PUT_FIELDS = Set.of("op", "id", "weight", "zone");
    private static final Set<String> REMOVE_FIELDS = Set.of("op", "id");

    private final JsonMapper json = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

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
     * @throws IllegalArgumentException saying what is wrong with it, and where
     */
    public PersistedState decode(byte[] bytes) {
        if (bytes.length == 0) {
            throw new IllegalArgumentException("the state is empty (0 bytes)");
        }
        JsonNode root;
        try {
            root = json.readTree(bytes);
        } catch (JacksonException e) {
            String where = e.getLocation() == null ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
            String message = e.getOriginalMessage();
            if (message != null && message.contains("end-of-input")) {
                message = "it ends early, truncated after " + bytes.length + " bytes (" + message + ")";
            }
            throw new IllegalArgumentException("not valid JSON" + where + ": " + message, e);
        }
        if (root == null || root.isMissingNode() || !root.isObject()) {
            throw new IllegalArgumentException("not a JSON object");
        }
        JsonNode formatNode = root.get("format");
        if (formatNode == null || formatNode.isNull()) {
            throw new IllegalArgumentException("missing field \"format\" (not a ringd state)");
        }
        if (!formatNode.isIntegralNumber() || !formatNode.canConvertToInt()) {
            throw new IllegalArgumentException("\"format\" must be an integer: " + formatNode);
        }
        int format = formatNode.intValue();
        if (format > FORMAT) {
            throw new IllegalArgumentException("format " + format + " was written by a newer ringd (this version"
                    + " reads format " + FORMAT + "): run that ringd, or restore a state written in format "
                    + FORMAT);
        }
        if (format != FORMAT) {
            throw new IllegalArgumentException("unknown format " + format + " (this version reads " + FORMAT + ")");
        }
        fields(root, "", ROOT_FIELDS);
        long version = nonNegative(root, "version", "");
        RingSettings settings = readSettings(required(root, "settings", ""), "settings");
        List<Node> nodes = readNodes(required(root, "nodes", ""), "nodes");

        JsonNode h = object(required(root, "history", ""), "history");
        fields(h, "history", HISTORY_FIELDS);
        long baseVersion = nonNegative(h, "baseVersion", "history");
        RingSettings baseSettings = readSettings(required(h, "baseSettings", "history"), "history.baseSettings");
        List<Node> baseNodes = readNodes(required(h, "baseNodes", "history"), "history.baseNodes");
        Instant baseCommittedAt = instant(h.get("baseCommittedAt"), "history.baseCommittedAt");
        List<HistoryDelta> deltas = new ArrayList<>();
        JsonNode array = array(required(h, "deltas", "history"), "history.deltas");
        for (int i = 0; i < array.size(); i++) {
            deltas.add(readDelta(array.get(i), "history.deltas[" + i + "]"));
        }
        checkVersions(version, baseVersion, deltas);
        return new PersistedState(version, settings, nodes,
                new RingHistory(baseVersion, baseSettings, baseNodes, deltas, baseCommittedAt));
    }

    /** Sorts the kept versions, then checks they run from baseVersion + 1 to version, each once. */
    private static void checkVersions(long version, long baseVersion, List<HistoryDelta> deltas) {
        if (baseVersion > version) {
            throw new IllegalArgumentException("history.baseVersion " + baseVersion + " is after the state's version "
                    + version);
        }
        deltas.sort(Comparator.comparingLong(HistoryDelta::version));
        for (int i = 1; i < deltas.size(); i++) {
            if (deltas.get(i).version() == deltas.get(i - 1).version()) {
                throw new IllegalArgumentException("history.deltas: version " + deltas.get(i).version()
                        + " is listed twice");
            }
        }
        long expected = baseVersion + 1;
        for (HistoryDelta d : deltas) {
            if (d.version() != expected) {
                throw new IllegalArgumentException("history.deltas: versions are not contiguous: version "
                        + expected + " is missing (the kept versions must run from history.baseVersion + 1 = "
                        + (baseVersion + 1) + " to version " + version + "; found " + d.version() + ")");
            }
            expected++;
        }
        if (expected - 1 != version) {
            throw new IllegalArgumentException("history.deltas end at version " + (expected - 1)
                    + " but the state is at version " + version);
        }
    }

    private HistoryDelta readDelta(JsonNode d, String path) {
        object(d, path);
        fields(d, path, DELTA_FIELDS);
        long v = nonNegative(d, "version", path);
        String at = path + " (version " + v + ")";
        List<Change> changes = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        JsonNode array = array(required(d, "changes", path), path + ".changes");
        for (int i = 0; i < array.size(); i++) {
            String p = path + ".changes[" + i + "]";
            JsonNode c = object(array.get(i), p);
            String op = string(required(c, "op", p), p + ".op");
            Change change = switch (op) {
                case "put" -> {
                    fields(c, p, PUT_FIELDS);
                    yield Change.put(readNode(c, p));
                }
                case "remove" -> {
                    fields(c, p, REMOVE_FIELDS);
                    yield Change.remove(id(required(c, "id", p), p + ".id"));
                }
                default -> throw new IllegalArgumentException(p + ".op must be \"put\" or \"remove\": \"" + op
                        + "\"");
            };
            if (!ids.add(change.id())) {
                throw new IllegalArgumentException(at + ": node \"" + change.id()
                        + "\" is changed twice in one version");
            }
            changes.add(change);
        }
        JsonNode s = d.get("settings");
        RingSettings settings = s == null || s.isNull() ? null : readSettings(s, path + ".settings");
        if (changes.isEmpty() && settings == null) {
            throw new IllegalArgumentException(at + " has neither changes nor settings: every version changes "
                    + "something");
        }
        JsonNode fingerprint = d.get("fingerprint");
        String f = null;
        if (fingerprint != null && !fingerprint.isNull()) {
            f = string(fingerprint, path + ".fingerprint");
            if (!FINGERPRINT.matcher(f).matches()) {
                throw new IllegalArgumentException(path + ".fingerprint must be 64 lowercase hex digits: \""
                        + abbreviate(f) + "\"");
            }
        }
        return new HistoryDelta(v, changes, settings, instant(d.get("committedAt"), path + ".committedAt"), f);
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

    private static RingSettings readSettings(JsonNode s, String path) {
        object(s, path);
        fields(s, path, SETTINGS_FIELDS);
        RingSettings settings = new RingSettings(string(required(s, "hash", path), path + ".hash"),
                integer(required(s, "vnodesPerWeight", path), path + ".vnodesPerWeight"),
                string(required(s, "algorithm", path), path + ".algorithm"),
                integer(required(s, "maglevTableSize", path), path + ".maglevTableSize"));
        try {
            SettingsPatch.validate(settings);
        } catch (InvalidInputException e) {
            throw new IllegalArgumentException(path + "." + e.field() + ": " + e.getMessage(), e);
        }
        return settings;
    }

    /** Members in any order, sorted by id; an id listed twice is refused. */
    private static List<Node> readNodes(JsonNode a, String path) {
        array(a, path);
        Map<String, Integer> seen = new HashMap<>();
        List<Node> out = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            String p = path + "[" + i + "]";
            JsonNode n = object(a.get(i), p);
            fields(n, p, NODE_FIELDS);
            Node node = readNode(n, p);
            Integer first = seen.putIfAbsent(node.id(), i);
            if (first != null) {
                throw new IllegalArgumentException(path + ": node \"" + node.id() + "\" is listed twice (at "
                        + first + " and " + i + ")");
            }
            out.add(node);
        }
        out.sort(Comparator.comparing(Node::id));
        return out;
    }

    private static Node readNode(JsonNode n, String path) {
        String id = id(required(n, "id", path), path + ".id");
        JsonNode w = required(n, "weight", path);
        if (!w.isNumber()) {
            throw new IllegalArgumentException(path + ".weight must be a number: " + abbreviate(w.toString()));
        }
        JsonNode zone = n.get("zone");
        String z = zone == null || zone.isNull() ? null : string(zone, path + ".zone");
        try {
            return new Node(id, w.doubleValue(), z);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
        }
    }

    private static String id(JsonNode n, String path) {
        String id = string(n, path);
        try {
            return Node.checkId(id);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
        }
    }

    /** An optional commit time (absent in state written before commit times were kept). */
    private static Instant instant(JsonNode n, String path) {
        if (n == null || n.isNull()) {
            return null;
        }
        try {
            return Instant.parse(string(n, path));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(path + " is not a commit time (RFC 3339, UTC): "
                    + abbreviate(n.toString()), e);
        }
    }

    private static JsonNode required(JsonNode parent, String field, String path) {
        JsonNode v = parent.get(field);
        if (v == null || v.isNull()) {
            throw new IllegalArgumentException("missing field \"" + field + "\""
                    + (path.isEmpty() ? "" : " in " + path));
        }
        return v;
    }

    /** Refuses a field this format does not have: a misspelt or newer field never passes silently. */
    private static void fields(JsonNode o, String path, Set<String> known) {
        for (String name : o.propertyNames()) {
            if (!known.contains(name)) {
                throw new IllegalArgumentException("unknown field \"" + abbreviate(name) + "\""
                        + (path.isEmpty() ? "" : " in " + path) + " (format " + FORMAT + " has " + known.stream()
                                .sorted().toList() + ")");
            }
        }
    }

    private static JsonNode object(JsonNode n, String path) {
        if (!n.isObject()) {
            throw new IllegalArgumentException(path + " must be a JSON object: " + abbreviate(n.toString()));
        }
        return n;
    }

    private static JsonNode array(JsonNode n, String path) {
        if (!n.isArray()) {
            throw new IllegalArgumentException(path + " must be a JSON array: " + abbreviate(n.toString()));
        }
        return n;
    }

    private static String string(JsonNode n, String path) {
        if (!n.isString()) {
            throw new IllegalArgumentException(path + " must be a string: " + abbreviate(n.toString()));
        }
        return n.stringValue();
    }

    private static int integer(JsonNode n, String path) {
        if (!n.isIntegralNumber() || !n.canConvertToInt()) {
            throw new IllegalArgumentException(path + " must be an integer: " + abbreviate(n.toString()));
        }
        return n.intValue();
    }

    private static long nonNegative(JsonNode parent, String field, String path) {
        String p = path.isEmpty() ? field : path + "." + field;
        JsonNode n = required(parent, field, path);
        if (!n.isIntegralNumber() || !n.canConvertToLong() || n.longValue() < 0) {
            throw new IllegalArgumentException(p + " must be an integer >= 0: " + abbreviate(n.toString()));
        }
        return n.longValue();
    }

    private static String abbreviate(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }
}
