package io.ringd.follow;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

import io.ringd.state.InvalidInputException;
import io.swagger.v3.oas.annotations.media.Schema;

/** The body of {@code PUT /followers/{id}} (docs/ring.md section 23). */
@Schema(name = "FollowerReport", description = "The version a follower applied, and what it saw of each node")
record FollowerReport(
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "The version applied, >= 0",
                example = "8") Long version,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "Its fingerprint as the follower "
                + "computed it: 64 lowercase hex digits", example = "9f2c41d7e0b35a86c1f4e2d9b07a6358"
                + "1e4c2b9d7f0a3e6c5b8d1f4a7c0e3b6d") String fingerprint,
        @Schema(description = "Optional: per node id, the follower's recent p99 latency to it, in milliseconds "
                + "(finite, >= 0); at most one entry per member") Map<String, NodeReport> nodes) {

    /** What a follower saw of one node lately. */
    @Schema(name = "FollowerNodeReport", description = "What a follower saw of one node lately")
    record NodeReport(@Schema(description = "Its recent p99 latency to the node, in milliseconds", minimum = "0",
            example = "3.2") Double latencyMs) {
    }

    /** A follower id (docs/ring.md section 23): 1 to 200 of A-Z a-z 0-9 . _ : @ / -. */
    static final Pattern ID = Pattern.compile("[A-Za-z0-9._:@/-]{1,200}");
    static final Pattern FINGERPRINT = Pattern.compile("[0-9a-f]{64}");
    /** The most nodes one report may name. */
    static final int MAX_NODES = 1_000;

    /**
     * Checks a follower id.
     *
     * @throws InvalidInputException (400) naming {@code id}
     */
    static String checkId(String id) {
        if (id == null || !ID.matcher(id).matches()) {
            String shown = id == null ? "" : id.length() > 40 ? id.substring(0, 40) + "..." : id;
            throw new InvalidInputException("id", "a follower id is 1 to 200 characters of A-Z a-z 0-9 . _ : @ / -"
                    + " (a '/' sent as %2F): \"" + shown + "\"");
        }
        return id;
    }

    long checkedVersion() {
        if (version == null) {
            throw new InvalidInputException("version", "version is required");
        }
        if (version < 0) {
            throw new InvalidInputException("version", "version must be >= 0: " + version);
        }
        return version;
    }

    String checkedFingerprint() {
        if (fingerprint == null) {
            throw new InvalidInputException("fingerprint", "fingerprint is required");
        }
        if (!FINGERPRINT.matcher(fingerprint).matches()) {
            throw new InvalidInputException("fingerprint", "fingerprint must be 64 lowercase hex digits (the "
                    + "SHA-256 of docs/ring.md section 5): \"" + (fingerprint.length() > 70
                            ? fingerprint.substring(0, 70) + "..." : fingerprint) + "\"");
        }
        return fingerprint;
    }

    /** The latencies, checked: node id to milliseconds. */
    Map<String, Double> checkedLatencies() {
        if (nodes == null || nodes.isEmpty()) {
            return Map.of();
        }
        if (nodes.size() > MAX_NODES) {
            throw new InvalidInputException("nodes", "a report names at most " + MAX_NODES + " nodes: "
                    + nodes.size());
        }
        Map<String, Double> out = new HashMap<>(nodes.size() * 2);
        for (Map.Entry<String, NodeReport> e : nodes.entrySet()) {
            String node = e.getKey();
            if (node.isEmpty() || node.length() > 256) {
                throw new InvalidInputException("nodes", "a node id is 1 to 256 characters");
            }
            NodeReport r = e.getValue();
            String field = "nodes." + (node.length() > 40 ? node.substring(0, 40) + "..." : node) + ".latencyMs";
            if (r == null || r.latencyMs() == null) {
                throw new InvalidInputException(field, "latencyMs is required for each node named");
            }
            double v = r.latencyMs();
            if (!(v >= 0) || Double.isInfinite(v)) {
                throw new InvalidInputException(field, "latencyMs must be a finite number >= 0: " + v);
            }
            out.put(node, v);
        }
        return out;
    }
}
