package io.ringd.state;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.ringd.ring.Change;
import io.ringd.ring.Node;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * A batch of membership changes as clients send it, the body of
 * {@code POST /membership} (applied) and {@code POST /diff} (a dry run):
 * {@code {"changes":[{"op":"put","id","weight","zone","hashKey"},{"op":"remove","id"}]}}.
 * {@link #toChanges()} checks it, naming the input at fault
 * ({@code changes[2].weight}).
 *
 * @param changes 1 to 10,000 changes, each id at most once
 */
@Schema(name = "ChangeBatch", description = "Membership changes applied all or nothing, as one version")
public record ChangeBatch(
        @ArraySchema(minItems = 1, maxItems = MAX_CHANGES, schema = @Schema(implementation = Item.class))
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) List<Item> changes) {

    /** The most changes in one batch. */
    public static final int MAX_CHANGES = 10_000;

    /**
     * One change: {@code put} (add or replace, {@code weight} required) or {@code remove} (only {@code id}).
     *
     * @param op     {@code put} or {@code remove}
     * @param id     the node id
     * @param weight the weight of a put, in (0, 10000]
     * @param zone   the zone of a put; absent or null means no zone
     * @param hashKey the placement string of a put; absent or null means its id
     */
    @Schema(name = "Change")
    public record Item(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, allowableValues = {"put", "remove"},
                    example = "put") String op,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "cache-4") String id,
            @Schema(description = "Required for put, absent for remove; in (0, 10000]", nullable = true,
                    example = "1") Double weight,
            @Schema(description = "For put only; absent or null means no zone", nullable = true,
                    example = "eu-1b") String zone,
            @Schema(description = "For put only; the string the node is placed by (1 to 4096 bytes of UTF-8); "
                    + "absent or null means its id", nullable = true, example = "localhost/10.0.0.8:11211")
            String hashKey) {
    }

    /**
     * The changes, checked.
     *
     * @throws InvalidInputException naming the change and field at fault
     */
    public List<Change> toChanges() {
        if (changes == null) {
            throw new InvalidInputException("changes", "changes must be an array of changes");
        }
        if (changes.isEmpty() || changes.size() > MAX_CHANGES) {
            throw new InvalidInputException("changes",
                    "changes must hold 1 to " + MAX_CHANGES + " changes: " + changes.size());
        }
        List<Change> out = new ArrayList<>(changes.size());
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < changes.size(); i++) {
            String at = "changes[" + i + "]";
            Item c = changes.get(i);
            if (c == null) {
                throw new InvalidInputException(at, at + " must be a JSON object");
            }
            String op = NodeInput.required(c.op(), at + ".op");
            String id = NodeInput.id(NodeInput.required(c.id(), at + ".id"), at + ".id");
            if (!ids.add(id)) {
                throw new InvalidInputException(at + ".id", "node id appears twice in one batch: " + id);
            }
            switch (op) {
                case "put" -> out.add(Change.put(NodeInput.node(NodeInput.newId(id, at + ".id"), c.weight(),
                        c.zone(), c.hashKey(), at + ".")));
                case "remove" -> {
                    if (c.weight() != null || c.zone() != null || c.hashKey() != null) {
                        throw new InvalidInputException(
                                at + (c.weight() != null ? ".weight" : c.zone() != null ? ".zone" : ".hashKey"),
                                "a remove takes only op and id");
                    }
                    out.add(Change.remove(id));
                }
                default -> throw new InvalidInputException(at + ".op",
                        "op must be put or remove: " + NodeInput.abbreviate(op));
            }
        }
        return out;
    }
}
