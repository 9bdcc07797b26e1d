package io.ringd.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ringd.RealServerTest;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;
import io.ringd.ring.RingPoints;
import tools.jackson.databind.JsonNode;

/** {@code GET /points}: every point of a small ring, the entries of a small Maglev table, slices otherwise. */
class PointsApiTest extends RealServerTest {

    @BeforeEach
    void emptyRing() {
        reset();
    }

    @Test
    void points_listsEveryPointOfASmallRing() {
        long v = putAll("A:1", "B:2:eu-1a", "C:0.5");
        HashRing lib = libraryRing();
        JsonNode body = fastGet("/points");
        assertThat(body.get("version").asLong()).isEqualTo(v);
        assertThat(body.get("placement").asString()).isEqualTo("ring");
        assertThat(body.get("pointCount").asInt()).isEqualTo(lib.pointCount());
        assertThat(body.has("slices")).isFalse();
        JsonNode points = body.get("points");
        assertThat(points.size()).isEqualTo(lib.pointCount());
        for (int i = 0; i < lib.pointCount(); i++) {
            JsonNode p = points.get(i);
            assertThat(p.get("hash").asLong()).isEqualTo(lib.pointAt(i));
            assertThat(p.get("node").asString()).isEqualTo(lib.ownerAt(i));
            assertThat(lib.config().hash().hashUnsigned(p.get("vnode").asString())).isEqualTo(lib.pointAt(i));
        }
    }

    @Test
    void points_ofAnEmptyRingOrTableAreNone() {
        JsonNode ring = fastGet("/points");
        assertThat(ring.get("pointCount").asInt()).isZero();
        assertThat(ring.get("points").isEmpty()).isTrue();
        assertThat(adminJson("{\"algorithm\":\"maglev\",\"maglevTableSize\":1009}").put("/settings").statusCode())
                .isEqualTo(200);
        JsonNode table = fastGet("/points");
        assertThat(table.get("placement").asString()).isEqualTo("maglev");
        assertThat(table.get("entries").isEmpty()).isTrue();
        assertThat(table.has("points")).isFalse();
    }

    @Test
    void points_summarisesALargeRingInExactSlices() {
        List<String> specs = new ArrayList<>();
        for (int i = 0; i < 160; i++) {
            specs.add("n" + i + ":1");
        }
        putAll(specs.toArray(String[]::new)); // 20,480 points
        HashRing lib = libraryRing();
        assertThat(lib.pointCount()).isGreaterThan(RingPoints.MAX_LISTED);
        JsonNode body = fastGet("/points");
        assertThat(body.has("points")).isFalse();
        JsonNode slices = body.get("slices");
        List<RingPoints.Slice> want = RingPoints.slices(lib, 720, 4);
        assertThat(slices.size()).isEqualTo(720);
        long total = 0;
        for (int s = 0; s < 720; s++) {
            JsonNode got = slices.get(s);
            RingPoints.Slice w = want.get(s);
            assertThat(got.get("start").asLong()).isEqualTo(w.start()).isEqualTo(s * SPACE / 720);
            assertThat(got.get("end").asLong()).isEqualTo(w.end());
            assertThat(got.get("othersCount").asLong()).isEqualTo(w.othersCount());
            long sum = got.get("othersCount").asLong();
            for (int k = 0; k < w.owners().size(); k++) {
                assertThat(got.get("owners").get(k).get("node").asString()).isEqualTo(w.owners().get(k).node());
                assertThat(got.get("owners").get(k).get("count").asLong()).isEqualTo(w.owners().get(k).count());
                sum += w.owners().get(k).count();
            }
            assertThat(sum).isEqualTo(w.end() - w.start() + 1);
            total += sum;
        }
        assertThat(total).isEqualTo(SPACE);
    }

    @Test
    void points_listsTheEntriesOfASmallMaglevTable() {
        assertThat(adminJson("{\"algorithm\":\"maglev\",\"maglevTableSize\":1009}").put("/settings").statusCode())
                .isEqualTo(200);
        putAll("A:1", "B:2");
        HashRing lib = HashRing.of(RingConfig.of("md5", 128, "maglev", 1009), 0,
                List.of(Node.of("A", 1), Node.of("B", 2)));
        JsonNode body = fastGet("/points");
        assertThat(body.get("placement").asString()).isEqualTo("maglev");
        assertThat(body.get("pointCount").asInt()).isEqualTo(1009);
        assertThat(strings(body.get("entries"))).isEqualTo(RingPoints.entries(lib));
    }
}
