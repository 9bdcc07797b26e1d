package io.ringd.metrics;

import io.ringd.RealServerTest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The ring's metrics as Prometheus shows them at /actuator/prometheus. */
class MetricsApiTest extends RealServerTest {

    @BeforeEach
    void emptyRing() {
        reset();
    }

    @Test
    void routes_countOnlyLookupsAtTheCurrentVersion() {
        putAll("solo:1");
        long old = version();
        putAll("solo:2");
        long current = version();
        double before = metric("ringd_routes_total", "node=\"solo\"");

        api().get("/route/k").then().statusCode(200);
        api().get("/route?key=k").then().statusCode(200);
        api().get("/route/k?version=" + current).then().statusCode(200);
        api().contentType("application/json").body("{\"keys\":[\"a\",\"b\",\"c\"]}").post("/route").then().statusCode(200);
        assertThat(metric("ringd_routes_total", "node=\"solo\"")).isEqualTo(before + 6);

        api().get("/route/k?version=" + old).then().statusCode(200);
        api().get("/route?key=k&version=" + old).then().statusCode(200);
        assertThat(metric("ringd_routes_total", "node=\"solo\"")).as("older versions are not counted")
                .isEqualTo(before + 6);
    }

    @Test
    void ringGauges_followTheRing() {
        putAll("A:1", "B:3", "C:0.5");
        String text = prometheus();
        assertThat(metric(text, "ringd_ring_version", "")).isEqualTo(version());
        assertThat(metric(text, "ringd_nodes", "")).isEqualTo(3);
        long points = 0;
        for (var n : getJson("/ownership").get("nodes")) {
            points += n.get("points").asLong();
            assertThat(metric(text, "ringd_ownership_share", "node=\"" + n.get("id").asString() + "\""))
                    .isCloseTo(n.get("share").asDouble(), within(1e-12));
        }
        assertThat(metric(text, "ringd_points", "")).isEqualTo(points);
        assertThat(metric(text, "ringd_node_weight", "node=\"B\"")).isEqualTo(3.0);
        assertThat(text).contains("fingerprint=\"" + fingerprint() + "\"");

        admin().delete("/nodes/C").then().statusCode(200);
        String after = prometheus();
        assertThat(after.lines().filter(l -> l.startsWith("ringd_") && l.contains("node=\"C\"")).toList())
                .as("a node that left has no series").isEmpty();
        assertThat(metric(after, "ringd_nodes", "")).isEqualTo(2);
    }

    @Test
    void membershipChanges_countedByOperation_onlyWhenTheyMakeAVersion() {
        String t0 = prometheus();
        putNode("mc", 1, null);
        putNode("mc", 1, null); // no new version
        admin().delete("/nodes/mc").then().statusCode(200);
        putAll("mc2:1");
        adminJson("{\"vnodesPerWeight\":64}").put("/settings").then().statusCode(200);
        adminJson("{\"vnodesPerWeight\":64}").put("/settings").then().statusCode(200); // no new version
        batch("[{\"op\":\"remove\",\"id\":\"nope\"}]").then().statusCode(404);
        String t1 = prometheus();
        for (String op : List.of("put", "remove", "batch", "settings")) {
            String label = "op=\"" + op + "\"";
            assertThat(metric(t1, "ringd_membership_changes_total", label) - metric(t0, "ringd_membership_changes_total", label))
                    .as(op).isEqualTo(1);
        }
    }

    private String prometheus() {
        return api().get("/actuator/prometheus").then().statusCode(200).extract().asString();
    }

    private double metric(String name, String label) {
        return metric(prometheus(), name, label);
    }

    /** The sum of the samples of {@code name} whose labels contain {@code label}. */
    private static double metric(String text, String name, String label) {
        List<String> lines = text.lines()
                .filter(l -> l.startsWith(name + "{") || l.startsWith(name + " "))
                .filter(l -> l.contains(label)).toList();
        assertThat(lines).as("%s{%s} in the metrics", name, label).isNotEmpty();
        return lines.stream().mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }
}
