package io.ringd.lookup;

import java.util.List;

import tools.jackson.core.JsonGenerator;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.SerializedString;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ser.std.StdSerializer;

import io.ringd.lookup.BatchAnswer.KeyNode;

/**
 * Writes a {@link BatchAnswer} straight to the generator: the same JSON as the record's bean serializer
 * ({@code version}, then {@code routes} of {@code key} and {@code node}), without a property look-up per
 * field of each of up to 10,000 routes.
 */
final class BatchWriter extends StdSerializer<BatchAnswer> {

    private static final SerializableString VERSION = new SerializedString("version");
    private static final SerializableString ROUTES = new SerializedString("routes");
    private static final SerializableString KEY = new SerializedString("key");
    private static final SerializableString NODE = new SerializedString("node");

    BatchWriter() {
        super(BatchAnswer.class);
    }

    @Override
    public void serialize(BatchAnswer answer, JsonGenerator gen, SerializationContext context) {
        List<KeyNode> routes = answer.routes();
        gen.writeStartObject(answer);
        gen.writeName(VERSION);
        gen.writeNumber(answer.version());
        gen.writeName(ROUTES);
        gen.writeStartArray(routes, routes.size());
        for (int i = 0; i < routes.size(); i++) {
            KeyNode route = routes.get(i);
            gen.writeStartObject(route);
            gen.writeName(KEY);
            gen.writeString(route.key());
            gen.writeName(NODE);
            gen.writeString(route.node());
            gen.writeEndObject();
        }
        gen.writeEndArray();
        gen.writeEndObject();
    }
}
