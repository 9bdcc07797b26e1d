package io.ringd.ring;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/** Loads the test vectors from {@code src/test/resources/vectors/}. */
public final class Vectors {

    public static final List<String> RING_FILES = List.of(
            "ring-md5-basic.json", "ring-md5-collision.json",
            "ring-murmur3-zones.json", "ring-sha256-hostport.json");

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private Vectors() {
    }

    public static JsonNode load(String name) {
        try (InputStream in = Vectors.class.getResourceAsStream("/vectors/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource vectors/" + name);
            }
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static RingConfig config(JsonNode vector) {
        JsonNode s = vector.get("settings");
        return RingConfig.of(s.get("hash").asString(), s.get("vnodesPerWeight").asInt());
    }

    public static Node node(JsonNode n) {
        JsonNode zone = n.get("zone");
        JsonNode hashKey = n.get("hashKey");
        return new Node(n.get("id").asString(), n.get("weight").asDouble(),
                zone == null || zone.isNull() ? null : zone.asString(),
                hashKey == null || hashKey.isNull() ? null : hashKey.asString());
    }

    /**
     * The config of a vector whose settings are written as the service shows them: {@code hash},
     * and where given {@code vnodesPerWeight}, {@code algorithm}, {@code maglevTableSize},
     * {@code ketamaFlavor}.
     */
    public static RingConfig settings(JsonNode vector) {
        JsonNode s = vector.get("settings");
        return RingConfig.of(s.get("hash").asString(),
                s.has("vnodesPerWeight") ? s.get("vnodesPerWeight").asInt() : RingConfig.DEFAULT_VNODES_PER_WEIGHT,
                s.has("algorithm") ? s.get("algorithm").asString() : RingConfig.DEFAULT_ALGORITHM,
                s.has("maglevTableSize") ? s.get("maglevTableSize").asInt() : RingConfig.DEFAULT_MAGLEV_TABLE_SIZE,
                s.has("ketamaFlavor") ? s.get("ketamaFlavor").asString() : null);
    }

    public static List<Node> nodes(JsonNode vector) {
        List<Node> out = new ArrayList<>();
        for (JsonNode n : vector.get("nodes")) {
            out.add(node(n));
        }
        return out;
    }

    public static List<Change> changes(JsonNode changes) {
        List<Change> out = new ArrayList<>();
        for (JsonNode c : changes) {
            String op = c.get("op").asString();
            if (op.equals("put")) {
                out.add(Change.put(node(c)));
            } else if (op.equals("remove")) {
                out.add(Change.remove(c.get("id").asString()));
            } else {
                throw new IllegalArgumentException("unknown op in vector: " + op);
            }
        }
        return out;
    }

    public static HashRing ring(JsonNode vector) {
        return HashRing.of(config(vector), 0, nodes(vector));
    }
}
