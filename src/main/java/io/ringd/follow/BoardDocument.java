package io.ringd.follow;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import io.ringd.wire.WireJson;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What one instance posts of its followers on the ring's board (docs/ring.md
 * section 23), gzipped JSON:
 * {@code {"v":1,"f":[[id,version,match,fingerprint,reportedAt,firstAt,appliedSeconds],...],"l":{"node":[count,points...]}}}:
 * {@code match} is {@code true}, {@code false} or {@code null} (not checked
 * yet: then {@code fingerprint} is the reported one, else {@code null}); times
 * are epoch milliseconds; {@code l} holds each node's {@link LatencySketch}.
 * A follower costs about 40 bytes of it gzipped with ids like host names and
 * process ids (11.5 with the benchmark's {@code f-NNNNN}, which compress far
 * better; docs/benchmarks.md), its fingerprint only while it could not be
 * checked.
 */
final class BoardDocument {

    /** The most bytes a document may take gunzipped: a post beyond it is refused by its reader. */
    static final int MAX_JSON_BYTES = 64 << 20;

    record Decoded(Map<String, FollowerEntry> followers, Map<String, double[]> latencies) {
    }

    private BoardDocument() {
    }

    static byte[] encode(List<FollowerEntry> entries, Map<String, double[]> latencies) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode root = f.objectNode();
        root.put("v", 1);
        ArrayNode rows = root.putArray("f");
        for (FollowerEntry e : entries) {
            ArrayNode r = rows.addArray();
            r.add(e.id());
            r.add(e.version());
            if (e.match() == null) {
                r.addNull();
            } else {
                r.add(e.match());
            }
            if (e.fingerprint() == null) {
                r.addNull();
            } else {
                r.add(e.fingerprint());
            }
            r.add(e.reportedAt());
            r.add(e.firstAt());
            if (e.appliedSeconds() == null) {
                r.addNull();
            } else {
                r.add(e.appliedSeconds());
            }
        }
        ObjectNode lat = root.putObject("l");
        latencies.forEach((node, sketch) -> {
            ArrayNode a = lat.putArray(node);
            for (double d : sketch) {
                a.add(d);
            }
        });
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(WireJson.lenient().writeValueAsBytes(root));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /**
     * The followers and latencies of a document another instance posted.
     *
     * @throws IllegalArgumentException if it is not a document of this form
     */
    static Decoded decode(byte[] bytes) {
        JsonNode root;
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
            byte[] json = in.readNBytes(MAX_JSON_BYTES + 1);
            if (json.length > MAX_JSON_BYTES) {
                throw new IllegalArgumentException("over " + MAX_JSON_BYTES + " bytes");
            }
            root = WireJson.lenient().readTree(json);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("not a gzipped JSON document: " + e.getMessage(), e);
        }
        if (root == null || !root.path("v").isInt() || root.path("v").asInt() != 1 || !root.path("f").isArray()) {
            throw new IllegalArgumentException("not a followers document of version 1");
        }
        Map<String, FollowerEntry> followers = new LinkedHashMap<>();
        for (JsonNode r : root.path("f")) {
            if (!r.isArray() || r.size() != 7 || !r.get(0).isString() || !r.get(1).canConvertToLong()
                    || !r.get(4).canConvertToLong() || !r.get(5).canConvertToLong()) {
                throw new IllegalArgumentException("a follower row is not [id,version,match,fingerprint,"
                        + "reportedAt,firstAt,appliedSeconds]");
            }
            Boolean match = r.get(2).isBoolean() ? r.get(2).asBoolean() : null;
            String fp = r.get(3).isString() ? r.get(3).asString() : null;
            if (match == null && fp == null) {
                throw new IllegalArgumentException("a follower row has neither a match nor a fingerprint");
            }
            Double applied = r.get(6).isNumber() ? r.get(6).asDouble() : null;
            String id = r.get(0).asString();
            followers.put(id, new FollowerEntry(id, r.get(1).asLong(), match == null ? fp : null, match,
                    r.get(4).asLong(), r.get(5).asLong(), applied, Map.of()));
        }
        Map<String, double[]> latencies = new HashMap<>();
        JsonNode lat = root.path("l");
        if (lat.isObject()) {
            for (Map.Entry<String, JsonNode> e : lat.properties()) {
                List<Double> values = new ArrayList<>();
                for (JsonNode d : e.getValue()) {
                    values.add(d.asDouble());
                }
                double[] sketch = values.stream().mapToDouble(Double::doubleValue).toArray();
                if (LatencySketch.valid(sketch)) {
                    latencies.put(e.getKey(), sketch);
                }
            }
        }
        return new Decoded(followers, latencies);
    }
}
