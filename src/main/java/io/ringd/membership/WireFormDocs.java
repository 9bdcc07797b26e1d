package io.ringd.membership;

import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.swagger.v3.oas.models.media.Schema;

/**
 * The API document's words for the wire forms membership answers with
 * ({@code Ring}, {@code Node}): io.ringd.wire ships in the client jar and
 * carries no OpenAPI annotations, so what they said is said here.
 */
@Configuration(proxyBeanMethods = false)
class WireFormDocs {

    @Bean
    OpenApiCustomizer wireFormDescriptions() {
        return openApi -> {
            var schemas = openApi.getComponents().getSchemas();
            Schema<?> ring = schemas.get("Ring");
            if (ring != null) {
                ring.setDescription("The whole ring at one version");
                nullable(ring.getProperties().get("committedAt"), "When the version was committed; null for "
                        + "versions stored before commit times were kept").setExample("2026-11-30T10:11:29.606Z");
                Schema<?> incarnation = ring.getProperties().get("incarnation");
                if (incarnation != null) {
                    incarnation.setDescription("The ring's incarnation: 16 lowercase hex digits drawn when the ring "
                            + "was made, kept for ever; two histories with the same versions differ in it");
                    incarnation.setExample("5f0c3a9e1b7d2468");
                }
            }
            Schema<?> node = schemas.get("Node");
            if (node != null) {
                nullable(node.getProperties().get("zone"), "null: no zone");
            }
        };
    }

    private static Schema<?> nullable(Schema<?> property, String description) {
        property.addType("null");
        property.setDescription(description);
        return property;
    }
}
