package io.ringd.membership;

import io.ringd.ring.Node;
import io.ringd.state.InvalidInputException;
import io.ringd.state.NodeInput;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The body of {@code PUT /nodes/{id}}: {@code {"weight":1,"zone":"eu-1a"}}, and
 * {@code "hashKey"} for a node placed by a string of its own.
 *
 * @param id      optional; when given it must equal the id in the path
 * @param weight  required, in (0, 10000]
 * @param zone    optional; absent or null means no zone
 * @param hashKey optional; absent or null means the node is placed by its id
 */
@Schema(name = "NodeRequest", description = "A node's weight, zone and placement string")
record NodeRequest(
        @Schema(description = "Optional; must equal the id in the path", nullable = true, example = "cache-1")
        String id,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "In (0, 10000]", example = "1")
        Double weight,
        @Schema(description = "Absent or null means no zone", nullable = true, example = "eu-1a") String zone,
        @Schema(description = "The string the node's points are placed by, where its id would be hashed: 1 to "
                + "4096 bytes of UTF-8, any characters (a memcached client's server string such as "
                + "localhost/10.0.0.7:11211). Absent or null: the id. Answers still name the node by its id",
                nullable = true, example = "localhost/10.0.0.7:11211") String hashKey) {

    /**
     * The node this body describes for the path's {@code pathId}.
     *
     * @throws InvalidInputException naming the field at fault
     */
    Node toNode(String pathId) {
        if (id != null && !id.equals(pathId)) {
            throw new InvalidInputException("id",
                    "id in the body must match the id in the path: " + NodeInput.abbreviate(id));
        }
        return NodeInput.node(pathId, weight, zone, hashKey, "");
    }
}
