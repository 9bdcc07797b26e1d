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
 * ({@code version}, then {@code routes} of {@code key}, {@code node} and, when asked for, {@code handoff}), without a property look-up per
 * field of each of up to 10,000 routes.
 */
final class BatchWriter extends StdSerializer<BatchAnswer> {

    private static final SerializableString VERSION = new SerializedString("version");
    private static final SerializableString ROUTES = new SerializedString("routes");
    private static final SerializableString KEY = new SerializedString("key");
    private static final SerializableString NODE = new SerializedString("node");
    private static final SerializableString HANDOFF = new SerializedString("handoff");
    private static final SerializableString MOVED_AT = new SerializedString("movedAt");
    private static final SerializableString MOVED_AT_TIME = new SerializedString("movedAtTime");
    private static final SerializableString PREVIOUS = new SerializedString("previous");

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
            if (answer.withHandoff()) {
                writeHandoff(gen, route.handoff());
            }
            gen.writeEndObject();
        }
        gen.writeEndArray();
        gen.writeEndObject();
    }

    /** {@code "handoff":null} or {@code "handoff":{"movedAt","movedAtTime","previous"}}, as HandoffJson reads. */
    private static void writeHandoff(JsonGenerator gen, HandoffJson h) {
        gen.writeName(HANDOFF);
        if (h == null) {
            gen.writeNull();
            return;
        }
        gen.writeStartObject(h);
        gen.writeName(MOVED_AT);
        gen.writeNumber(h.movedAt());
        gen.writeName(MOVED_AT_TIME);
        if (h.movedAtTime() == null) {
            gen.writeNull();
        } else {
            gen.writeString(h.movedAtTime());
        }
        gen.writeName(PREVIOUS);
        List<String> previous = h.previous();
        gen.writeStartArray(previous, previous.size());
        for (int i = 0; i < previous.size(); i++) {
            gen.writeString(previous.get(i));
        }
        gen.writeEndArray();
        gen.writeEndObject();
    }
}
