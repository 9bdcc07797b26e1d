package io.ringd;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.state.RingSettings;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A ring as a client expects it: settings and members at one version, and
 * the random admin writes that change it, each with the membership it must
 * make. The library's {@link HashRing} for it is the oracle of every answer.
 *
 * @param version  the version
 * @param settings the settings
 * @param members  id to node
 */
public record Membership(long version, RingSettings settings, Map<String, Node> members) {

    static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String[] HASHES = {"md5", "murmur3", "sha256"};
    private static final int[] VNODES = {16, 32, 64};

    public Membership {
        members = new TreeMap<>(members);
    }

    /** Version 0 of a new ring with these settings. */
    public static Membership empty(RingSettings settings) {
        return new Membership(0, settings, Map.of());
    }

    /** The membership of a {@code GET /ring} body. */
    public static Membership of(JsonNode ring) {
        JsonNode s = ring.get("settings");
        RingSettings settings = new RingSettings(s.get("hash").asString(), s.get("vnodesPerWeight").asInt(),
                s.get("algorithm").asString(), s.get("maglevTableSize").asInt());
        Map<String, Node> members = new TreeMap<>();
        for (JsonNode n : ring.get("nodes")) {
            JsonNode zone = n.get("zone");
            members.put(n.get("id").asString(), new Node(n.get("id").asString(), n.get("weight").asDouble(),
                    zone == null || zone.isNull() ? null : zone.asString()));
        }
        return new Membership(ring.get("version").asLong(), settings, members);
    }

    /** The library's ring for this membership. */
    public HashRing ring() {
        return HashRing.of(settings.toConfig(), version, members.values());
    }

    /** Whether {@code other} has the same settings and members (the version aside). */
    public boolean sameRing(Membership other) {
        return settings.equals(other.settings) && List.copyOf(members.values()).equals(List.copyOf(other.members.values()));
    }

    @Override
    public String toString() {
        return "v" + version + " " + settings + " " + members.values();
    }

    /**
     * One admin write: its method, path and JSON body, and the membership it
     * makes from the one it is sent at (with {@code If-Match} of that version).
     */
    public record Write(String method, String path, String body, Membership result) {
        @Override
        public String toString() {
            return method + " " + path + " " + (body == null ? "" : body);
        }
    }

    /**
     * A random write that changes something: a new node, a reweight or new
     * zone, a removal, a batch, or new settings; at most {@code maxNodes} members.
     */
    public Write randomWrite(Random rnd, int maxNodes) {
        TreeMap<String, Node> next = new TreeMap<>(members);
        List<String> ids = new ArrayList<>(members.keySet());
        int kind = rnd.nextInt(20);
        if (kind == 0) {
            RingSettings s;
            do {
                s = new RingSettings(HASHES[rnd.nextInt(HASHES.length)], VNODES[rnd.nextInt(VNODES.length)],
                        settings.algorithm(), settings.maglevTableSize());
            } while (s.equals(settings));
            String body = "{\"hash\":\"" + s.hash() + "\",\"vnodesPerWeight\":" + s.vnodesPerWeight() + "}";
            return new Write("PUT", "/settings", body, new Membership(version + 1, s, next));
        }
        if (ids.size() < 3 || kind < 8 && ids.size() < maxNodes) {
            Node n = randomNode(rnd, freshId(rnd));
            next.put(n.id(), n);
            return new Write("PUT", "/nodes/" + n.id(), nodeBody(n), new Membership(version + 1, settings, next));
        }
        if (kind < 12) {
            Node old = members.get(ids.get(rnd.nextInt(ids.size())));
            Node n;
            do {
                n = randomNode(rnd, old.id());
            } while (n.equals(old));
            next.put(n.id(), n);
            return new Write("PUT", "/nodes/" + n.id(), nodeBody(n), new Membership(version + 1, settings, next));
        }
        if (kind < 15) {
            String id = ids.get(rnd.nextInt(ids.size()));
            next.remove(id);
            return new Write("DELETE", "/nodes/" + id, null, new Membership(version + 1, settings, next));
        }
        ObjectNode batch = JSON.createObjectNode();
        ArrayNode changes = batch.putArray("changes");
        String removed = ids.get(rnd.nextInt(ids.size()));
        next.remove(removed);
        changes.addObject().put("op", "remove").put("id", removed);
        for (int i = 0, puts = 1 + rnd.nextInt(3); i < puts && next.size() < maxNodes; i++) {
            String id = freshId(rnd);
            if (id.equals(removed) || next.containsKey(id)) {
                continue;
            }
            Node n = randomNode(rnd, id);
            next.put(id, n);
            ObjectNode c = changes.addObject().put("op", "put").put("id", id).put("weight", n.weight());
            if (n.zone() != null) {
                c.put("zone", n.zone());
            }
        }
        return new Write("POST", "/membership", batch.toString(), new Membership(version + 1, settings, next));
    }

    private String freshId(Random rnd) {
        String id;
        do {
            id = "node-" + rnd.nextInt(1000) + (rnd.nextInt(4) == 0 ? ":11211" : "");
        } while (members.containsKey(id));
        return id;
    }

    private static Node randomNode(Random rnd, String id) {
        return new Node(id, 0.25 * (1 + rnd.nextInt(12)), rnd.nextInt(4) == 0 ? null : "zone-" + rnd.nextInt(3));
    }

    private static String nodeBody(Node n) {
        ObjectNode o = JSON.createObjectNode().put("weight", n.weight());
        if (n.zone() != null) {
            o.put("zone", n.zone());
        }
        return o.toString();
    }
}
