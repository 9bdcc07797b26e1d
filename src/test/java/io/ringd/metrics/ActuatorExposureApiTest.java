package io.ringd.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringd.RealServerTest;
import tools.jackson.databind.JsonNode;

/** The actuator exposes health, info and prometheus, and nothing else is reachable. */
class ActuatorExposureApiTest extends RealServerTest {

    @Test
    void onlyHealthInfoAndPrometheus_areExposed() {
        for (String path : List.of("/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness",
                "/actuator/info", "/actuator/prometheus")) {
            assertThat(api().get(path).statusCode()).as(path).isEqualTo(200);
        }
        for (String path : List.of("/actuator/env", "/actuator/metrics", "/actuator/metrics/jvm.memory.used",
                "/actuator/beans", "/actuator/heapdump", "/actuator/threaddump", "/actuator/loggers",
                "/actuator/configprops", "/actuator/mappings", "/actuator/conditions", "/actuator/scheduledtasks",
                "/actuator/caches", "/actuator/shutdown", "/actuator/startup", "/actuator/sbom",
                "/actuator/logfile", "/actuator/httpexchanges", "/actuator/auditevents")) {
            assertThat(api().get(path).statusCode()).as(path).isEqualTo(404);
            assertThat(api().post(path).statusCode()).as("POST %s", path).isIn(404, 405);
        }
        String index = api().get("/actuator").asString();
        assertThat(index).doesNotContain("/actuator/metrics").doesNotContain("/actuator/env");
    }

    /** The ring's own health is shown as a component, in the whole health and in readiness, without details. */
    @Test
    void health_showsTheRingComponent_withoutDetails() {
        for (String path : List.of("/actuator/health", "/actuator/health/readiness")) {
            JsonNode h = json(api().get(path));
            assertThat(h.path("components").path("ring").path("status").asString()).as(path).isEqualTo("UP");
            assertThat(h.path("components").path("ring").has("details")).as(path).isFalse();
        }
    }
}
