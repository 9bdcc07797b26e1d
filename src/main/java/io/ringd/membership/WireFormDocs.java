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
                Schema<?> hashKey = node.getProperties().get("hashKey");
                if (hashKey != null) {
                    hashKey.setDescription("The string the node's points are placed by, where its id would be hashed "
                            + "(1 to 4096 bytes of UTF-8); left out for a node placed by its id");
                    hashKey.setExample("localhost/10.0.0.7:11211");
                }
            }
            Schema<?> settings = schemas.get("RingSettings");
            if (settings != null && settings.getProperties().get("ketamaFlavor") != null) {
                Schema<?> flavor = settings.getProperties().get("ketamaFlavor");
                flavor.setDescription("With hash ketama only: how a weighted node's digests are counted, as "
                        + "libketama, libmemcached's ketama_weighted and spymemcached, or npm hashring do");
                flavor.setExample("libmemcached");
            }
        };
    }

    private static Schema<?> nullable(Schema<?> property, String description) {
        property.addType("null");
        property.setDescription(description);
        return property;
    }
}
