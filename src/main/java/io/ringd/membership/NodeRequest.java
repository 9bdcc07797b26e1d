package io.ringd.membership;

import io.ringd.ring.Node;
import io.ringd.state.InvalidInputException;
import io.ringd.state.NodeInput;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The body of {@code PUT /nodes/{id}}: {@code {"weight":1,"zone":"eu-1a"}}.
 *
 * @param id     optional; when given it must equal the id in the path
 * @param weight required, in (0, 10000]
 * @param zone   optional; absent or null means no zone
 */
@Schema(name = "NodeRequest", description = "A node's weight and zone")
record NodeRequest(
        @Schema(description = "Optional; must equal the id in the path", nullable = true, example = "cache-1")
        String id,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "In (0, 10000]", example = "1")
        Double weight,
        @Schema(description = "Absent or null means no zone", nullable = true, example = "eu-1a") String zone) {

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
        return NodeInput.node(pathId, weight, zone, "");
    }
}
