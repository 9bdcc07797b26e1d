package io.ringd.web;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.ringd.ring.Change;
import io.ringd.ring.Node;
import io.ringd.state.SettingsPatch;
import tools.jackson.databind.JsonNode;

/**
 * Reads and validates JSON request bodies, naming the field at fault
 * ({@code changes[2].weight}) in every refusal. Unknown fields are refused
 * too, so a misspelt field never passes silently.
 */
public final class Bodies {

    /** The most changes in one {@code /membership} batch. */
    public static final int MAX_CHANGES = 10_000;
    /** The most keys in one {@code POST /route}. */
    public static final int MAX_KEYS = 10_000;

    private static final Set<String> NODE_FIELDS = Set.of("id", "weight", "zone");
    private static final Set<String> CHANGE_FIELDS = Set.of("op", "id", "weight", "zone");
    private static final Set<String> SETTINGS_FIELDS = Set.of("hash", "vnodesPerWeight", "algorithm",
            "maglevTableSize");

    private Bodies() {
    }

    /** The body of {@code PUT /nodes/{id}}: {@code {"weight":1,"zone":"eu-1a"}}; an {@code id}, if given, must match. */
    public static Node node(JsonNode body, String id) {
        JsonNode o = object(body, null);
        onlyFields(o, NODE_FIELDS, null);
        JsonNode bodyId = o.get("id");
        if (bodyId != null && !bodyId.isNull() && !(bodyId.isString() && bodyId.asString().equals(id))) {
            throw bad("id in the body must match the id in the path: " + bodyId, "id");
        }
        return readNode(o, id, null);
    }

    /** The body of {@code POST /membership} and {@code POST /diff}. */
    public static List<Change> changes(JsonNode body) {
        JsonNode o = object(body, null);
        onlyFields(o, Set.of("changes"), null);
        JsonNode changes = o.get("changes");
        if (changes == null || !changes.isArray()) {
            throw bad("changes must be an array of changes", "changes");
        }
        if (changes.isEmpty() || changes.size() > MAX_CHANGES) {
            throw bad("changes must hold 1 to " + MAX_CHANGES + " changes: " + changes.size(), "changes");
        }
        List<Change> out = new ArrayList<>(changes.size());
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < changes.size(); i++) {
            String at = "changes[" + i + "]";
            JsonNode c = object(changes.get(i), at);
            onlyFields(c, CHANGE_FIELDS, at);
            String op = string(c.get("op"), at + ".op", true);
            String id = string(c.get("id"), at + ".id", true);
            checkId(id, at + ".id");
            if (!ids.add(id)) {
                throw bad("node id appears twice in one batch: " + id, at + ".id");
            }
            switch (op) {
                case "put" -> out.add(Change.put(readNode(c, id, at)));
                case "remove" -> {
                    if (c.has("weight") || c.has("zone")) {
                        throw bad("a remove takes only op and id", at + (c.has("weight") ? ".weight" : ".zone"));
                    }
                    out.add(Change.remove(id));
                }
                default -> throw bad("op must be put or remove: " + Versions.abbreviate(op), at + ".op");
            }
        }
        return out;
    }

    /** The body of {@code POST /route}: {@code {"keys":[...]}}. */
    public static List<String> keys(JsonNode body) {
        JsonNode o = object(body, null);
        onlyFields(o, Set.of("keys"), null);
        JsonNode keys = o.get("keys");
        if (keys == null || !keys.isArray()) {
            throw bad("keys must be an array of strings", "keys");
        }
        if (keys.isEmpty() || keys.size() > MAX_KEYS) {
            throw bad("keys must hold 1 to " + MAX_KEYS + " keys: " + keys.size(), "keys");
        }
        List<String> out = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            String at = "keys[" + i + "]";
            out.add(Keys.check(string(keys.get(i), at, true), at));
        }
        return out;
    }

    /** The body of {@code PUT /settings}: absent fields keep their value. */
    public static SettingsPatch settings(JsonNode body) {
        JsonNode o = object(body, null);
        onlyFields(o, SETTINGS_FIELDS, null);
        return new SettingsPatch(string(o.get("hash"), "hash", false), integer(o.get("vnodesPerWeight"),
                "vnodesPerWeight"), string(o.get("algorithm"), "algorithm", false),
                integer(o.get("maglevTableSize"), "maglevTableSize"));
    }

    private static Node readNode(JsonNode o, String id, String at) {
        String prefix = at == null ? "" : at + ".";
        JsonNode w = o.get("weight");
        if (w == null || w.isNull()) {
            throw bad("weight is required", prefix + "weight");
        }
        if (!w.isNumber()) {
            throw bad("weight must be a JSON number: " + Versions.abbreviate(w.toString()), prefix + "weight");
        }
        double weight = w.asDouble();
        if (!(weight > 0 && weight <= Node.MAX_WEIGHT)) {
            throw bad("weight must be in (0, 10000]: " + Versions.abbreviate(w.toString()), prefix + "weight");
        }
        String zone = string(o.get("zone"), prefix + "zone", false);
        try {
            return new Node(id, weight, zone);
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage(), prefix + "zone");
        }
    }

    /** Checks a node id, naming {@code field}. */
    public static String checkId(String id, String field) {
        try {
            return Node.checkId(id);
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage(), field);
        }
    }

    private static JsonNode object(JsonNode n, String at) {
        if (n == null || !n.isObject()) {
            throw bad((at == null ? "the body" : at) + " must be a JSON object", at);
        }
        return n;
    }

    private static void onlyFields(JsonNode o, Set<String> allowed, String at) {
        for (Map.Entry<String, JsonNode> e : o.properties()) {
            if (!allowed.contains(e.getKey())) {
                String name = at == null ? e.getKey() : at + "." + e.getKey();
                throw bad("unknown field " + Versions.abbreviate(e.getKey()) + "; expected one of "
                        + allowed.stream().sorted().toList(), name);
            }
        }
    }

    private static String string(JsonNode n, String field, boolean required) {
        if (n == null || n.isNull()) {
            if (required) {
                throw bad(field + " is required", field);
            }
            return null;
        }
        if (!n.isString()) {
            throw bad(field + " must be a string: " + Versions.abbreviate(n.toString()), field);
        }
        return n.asString();
    }

    private static Integer integer(JsonNode n, String field) {
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isIntegralNumber() || !n.canConvertToInt()) {
            throw bad(field + " must be an integer: " + Versions.abbreviate(n.toString()), field);
        }
        return n.asInt();
    }

    private static ApiException bad(String detail, String field) {
        return new ApiException(Problems.BAD_REQUEST, detail, field);
    }
}
