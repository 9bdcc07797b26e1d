package io.ringd.membership;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.ringd.ring.RingConfig;
import io.swagger.v3.oas.annotations.media.Schema;

/** The names the API document offers for PUT /settings are the library's, which an annotation cannot read. */
class SettingsRequestTest {

    @Test
    void theDocumentedHashesAndAlgorithms_areTheOnesTheLibraryTakes() throws Exception {
        assertThat(SettingsRequest.class.getDeclaredField("hash").getAnnotation(Schema.class).allowableValues())
                .containsExactlyElementsOf(RingConfig.SETTINGS_HASHES);
        assertThat(SettingsRequest.class.getDeclaredField("algorithm").getAnnotation(Schema.class).allowableValues())
                .containsExactlyElementsOf(RingConfig.SETTINGS_ALGORITHMS);
        assertThat(SettingsRequest.class.getDeclaredField("maglevTableSize").getAnnotation(Schema.class).example())
                .isEqualTo(String.valueOf(RingConfig.DEFAULT_MAGLEV_TABLE_SIZE));
    }
}
