package io.ringd.client;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

import io.ringd.ring.Change;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The server's answers a client reads (SPEC.md sections 7 and 10): the
 * {@code GET /ring} body, which is also the data of a {@code snapshot}
 * event, and the data of a {@code change} event. Reading is strict about
 * what building the ring needs and ignores fields it does not use.
 */
final class RingMessages {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private RingMessages() {
    }

    /** A message that is not what the protocol says; the client reloads rather than guess. */
    static final class BadMessage extends Exception {
        BadMessage(String message) {
            super(message);
        }

        BadMessage(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The ring settings as the server shows them. */
    record Settings(String hash, int vnodesPerWeight, String algorithm, int maglevTableSize) {
        /** The library config for these settings; IllegalArgumentException for one the library lacks. */
        RingConfig config() {
            return RingConfig.of(hash, vnodesPerWeight, algorithm, maglevTableSize);
        }
    }

    /** A whole ring: the body of {@code GET /ring} and the data of a {@code snapshot} event. */
    record Snapshot(long version, String fingerprint, Settings settings, List<Node> nodes, Instant committedAt) {

        /**
         * The ring this snapshot describes, built with the library, only if
         * its fingerprint is the server's.
         *
         * @throws BadMessage if the library refuses it or the fingerprints differ
         */
        HashRing build() throws BadMessage {
            HashRing ring;
            try {
                ring = HashRing.of(settings.config(), version, nodes);
            } catch (RuntimeException e) {
                throw new BadMessage("cannot build the ring of version " + version + ": " + e.getMessage(), e);
            }
            if (!ring.fingerprint().equals(fingerprint)) {
                throw new BadMessage("fingerprint mismatch at version " + version + ": built "
                        + ring.fingerprint() + ", the server has " + fingerprint);
            }
            return ring;
        }
    }

    /** The data of a {@code change} event: what turns version - 1 into version. */
    record ChangeEvent(long version, Instant committedAt, String fingerprint, List<Change> changes, Settings settings) {

        /**
         * {@code previous} (at {@code version - 1}) with these changes and
         * settings, at {@code version}, only if its fingerprint is the server's.
         *
         * @throws BadMessage if the library refuses a change or the fingerprints differ
         */
        HashRing applyTo(HashRing previous) throws BadMessage {
            HashRing next;
            try {
                next = changes.isEmpty() ? previous : previous.apply(changes);
                if (settings != null) {
                    next = next.withConfig(settings.config());
                }
                if (next.version() != version) {
                    // Both changes and settings (two steps in the library), or a step that changed
                    // nothing the ring is made of (a Maglev table size under algorithm ring): the
                    // same members and config, stamped with the server's version.
                    next = HashRing.of(next.config(), version, next.nodes());
                }
            } catch (RuntimeException e) {
                throw new BadMessage("cannot apply version " + version + ": " + e.getMessage(), e);
            }
            if (!next.fingerprint().equals(fingerprint)) {
                throw new BadMessage("fingerprint mismatch at version " + version + ": built "
                        + next.fingerprint() + ", the server has " + fingerprint);
            }
            return next;
        }
    }

    static Snapshot snapshot(String json) throws BadMessage {
        JsonNode root = parse(json);
        List<Node> nodes = new ArrayList<>();
        for (JsonNode n : array(root, "nodes")) {
            nodes.add(node(n));
        }
        return new Snapshot(version(root), fingerprint(root), settings(root.get("settings")), List.copyOf(nodes),
                optionalInstant(root, "committedAt"));
    }

    static ChangeEvent change(String json) throws BadMessage {
        JsonNode root = parse(json);
        List<Change> changes = new ArrayList<>();
        for (JsonNode c : array(root, "changes")) {
            String op = string(c, "op");
            switch (op) {
                case "put":
                    changes.add(Change.put(node(c)));
                    break;
                case "remove":
                    try {
                        changes.add(Change.remove(string(c, "id")));
                    } catch (IllegalArgumentException e) {
                        throw new BadMessage(e.getMessage(), e);
                    }
                    break;
                default:
                    throw new BadMessage("unknown op: " + op);
            }
        }
        JsonNode settings = root.get("settings");
        return new ChangeEvent(version(root), optionalInstant(root, "committedAt"), fingerprint(root),
                List.copyOf(changes), settings == null || settings.isNull() ? null : settings(settings));
    }

    private static JsonNode parse(String json) throws BadMessage {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JacksonException e) {
            throw new BadMessage("not JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new BadMessage("not a JSON object");
        }
        return root;
    }

    private static long version(JsonNode root) throws BadMessage {
        JsonNode v = root.get("version");
        if (v == null || !v.isIntegralNumber() || !v.canConvertToLong() || v.longValue() < 0) {
            throw new BadMessage("version must be a non-negative integer: " + v);
        }
        return v.longValue();
    }

    private static String fingerprint(JsonNode root) throws BadMessage {
        String f = string(root, "fingerprint");
        if (!f.matches("[0-9a-f]{64}")) {
            throw new BadMessage("fingerprint must be 64 lowercase hex digits: " + f);
        }
        return f;
    }

    private static Settings settings(JsonNode s) throws BadMessage {
        if (s == null || !s.isObject()) {
            throw new BadMessage("settings must be an object: " + s);
        }
        JsonNode algorithm = s.get("algorithm");
        JsonNode tableSize = s.get("maglevTableSize");
        return new Settings(string(s, "hash"), integer(s, "vnodesPerWeight"),
                algorithm == null ? "ring" : string(s, "algorithm"),
                tableSize == null ? 65_537 : integer(s, "maglevTableSize"));
    }

    private static Node node(JsonNode n) throws BadMessage {
        JsonNode weight = n.get("weight");
        if (weight == null || !weight.isNumber()) {
            throw new BadMessage("weight must be a number: " + weight);
        }
        JsonNode zone = n.get("zone");
        if (zone != null && !zone.isNull() && !zone.isString()) {
            throw new BadMessage("zone must be a string or null: " + zone);
        }
        try {
            return new Node(string(n, "id"), weight.doubleValue(), zone == null || zone.isNull() ? null : zone.stringValue());
        } catch (IllegalArgumentException e) {
            throw new BadMessage(e.getMessage(), e);
        }
    }

    private static Iterable<JsonNode> array(JsonNode root, String field) throws BadMessage {
        JsonNode a = root.get(field);
        if (a == null || !a.isArray()) {
            throw new BadMessage(field + " must be an array: " + a);
        }
        return a;
    }

    private static String string(JsonNode o, String field) throws BadMessage {
        JsonNode s = o.get(field);
        if (s == null || !s.isString()) {
            throw new BadMessage(field + " must be a string: " + s);
        }
        return s.stringValue();
    }

    private static int integer(JsonNode o, String field) throws BadMessage {
        JsonNode i = o.get(field);
        if (i == null || !i.isIntegralNumber() || !i.canConvertToInt()) {
            throw new BadMessage(field + " must be an integer: " + i);
        }
        return i.intValue();
    }

    /** The time, or null when absent or unreadable: it feeds the lag metric, never the ring. */
    private static Instant optionalInstant(JsonNode o, String field) {
        JsonNode t = o.get(field);
        if (t == null || !t.isString()) {
            return null;
        }
        try {
            return Instant.parse(t.stringValue());
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
