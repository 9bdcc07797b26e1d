package io.ringd.wire;

import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.LogicalType;

/**
 * The mappers that read and write the wire forms. Both take every value as
 * its JSON type says, never converted: a string where a number belongs
 * ({@code "1"}), a number where a string belongs, a fraction where an
 * integer belongs is refused. {@link #strict()} also refuses a field the
 * form lacks, a field given twice and anything after the document (a state
 * file); {@link #lenient()} ignores fields it does not use (a client reading
 * a newer server).
 */
public final class WireJson {

    private static final JsonMapper LENIENT = typed(JsonMapper.builder())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private WireJson() {
    }

    /** A builder of strict mappers, to add what one reader needs (a mix-in) before building. */
    public static JsonMapper.Builder strictBuilder() {
        return typed(JsonMapper.builder())
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    }

    /** A strict mapper. */
    public static JsonMapper strict() {
        return strictBuilder().build();
    }

    /** The lenient mapper; it also writes answers and events. */
    public static JsonMapper lenient() {
        return LENIENT;
    }

    private static JsonMapper.Builder typed(JsonMapper.Builder b) {
        return b.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .withCoercionConfig(LogicalType.Textual, text -> text
                        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail));
    }

    /**
     * Where in the document {@code e} happened, as a path:
     * {@code history.deltas[3].changes[0].weight}; {@code ""} at the root.
     */
    public static String path(JacksonException e) {
        StringBuilder p = new StringBuilder();
        for (JacksonException.Reference r : e.getPath()) {
            if (r.getPropertyName() != null) {
                if (!p.isEmpty()) {
                    p.append('.');
                }
                p.append(r.getPropertyName());
            } else if (r.getIndex() >= 0) {
                p.append('[').append(r.getIndex()).append(']');
            }
        }
        return p.toString();
    }
}
