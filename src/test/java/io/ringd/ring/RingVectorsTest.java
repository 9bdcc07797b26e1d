package io.ringd.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import tools.jackson.databind.JsonNode;

/** Every field of every ring-*.json vector, against the library. */
class RingVectorsTest {

    static final List<String> FILES = Vectors.RING_FILES;

    @ParameterizedTest
    @FieldSource("FILES")
    void ring_matchesPointCountFingerprintAndOwnership(String file) {
        JsonNode v = Vectors.load(file);
        HashRing ring = Vectors.ring(v);
        assertRing(ring, v, file);
    }

    @ParameterizedTest
    @FieldSource("FILES")
    void lookups_matchHashRoutePreferenceAndZones(String file) {
        JsonNode v = Vectors.load(file);
        HashRing ring = Vectors.ring(v);
        int checked = 0;
        for (JsonNode l : v.get("lookups")) {
            String key = l.get("key").asString();
            assertThat(ring.hash(key)).as("%s hash(%s)", file, key).isEqualTo(l.get("hash").asLong());
            assertThat(ring.route(key)).as("%s route(%s)", file, key).isEqualTo(l.get("node").asString());
            assertThat(ring.preference(key, 3)).as("%s preference(%s)", file, key)
                    .containsExactlyElementsOf(strings(l.get("preference")));
            assertThat(ring.preference(key, 3, true)).as("%s zone preference(%s)", file, key)
                    .containsExactlyElementsOf(strings(l.get("preferenceDistinctZones")));
            checked++;
        }
        assertThat(checked).isGreaterThan(100);
    }

    @ParameterizedTest
    @FieldSource("FILES")
    void hashLookups_matchOwnerOfEdgeValues(String file) {
        JsonNode v = Vectors.load(file);
        HashRing ring = Vectors.ring(v);
        assertThat(v.get("hashLookups").size()).isGreaterThan(3);
        for (JsonNode l : v.get("hashLookups")) {
            assertThat(ring.routeHash(l.get("hash").asLong())).as("%s owner of %s", file, l.get("hash"))
                    .isEqualTo(l.get("node").asString());
        }
    }

    @ParameterizedTest
    @FieldSource("FILES")
    void diffs_matchMovedCountFlowsRangesAndAfter(String file) {
        JsonNode v = Vectors.load(file);
        HashRing before = Vectors.ring(v);
        assertThat(v.get("diffs").size()).isGreaterThan(0);
        for (JsonNode d : v.get("diffs")) {
            String what = file + " " + d.get("change").asString();
            HashRing after = before.apply(Vectors.changes(d.get("changes")));
            assertThat(after.version()).as(what).isEqualTo(before.version() + 1);
            RingDiff diff = HashRing.diff(before, after);
            assertThat(diff.movedCount()).as(what).isEqualTo(d.get("movedCount").asLong());
            List<String> flows = new ArrayList<>();
            for (JsonNode f : d.get("flows")) {
                flows.add(f.get("from").asString() + "->" + f.get("to").asString() + "=" + f.get("count").asLong());
            }
            assertThat(diff.flows()).extracting(f -> f.from() + "->" + f.to() + "=" + f.count())
                    .as(what).containsExactlyElementsOf(flows);
            assertThat(diff.rangeCount()).as(what).isEqualTo(d.get("rangeCount").asInt());
            List<String> ranges = new ArrayList<>();
            for (JsonNode r : d.get("firstRanges")) {
                ranges.add(r.get("start").asLong() + ".." + r.get("end").asLong() + " "
                        + r.get("from").asString() + "->" + r.get("to").asString());
            }
            assertThat(diff.ranges(ranges.size()))
                    .extracting(r -> r.start() + ".." + r.end() + " " + r.from() + "->" + r.to())
                    .as(what).containsExactlyElementsOf(ranges);
            assertRing(after, d.get("after"), what);
        }
    }

    @org.junit.jupiter.api.Test
    void collision_goesToSmallestId() {
        JsonNode v = Vectors.load("ring-md5-collision.json");
        JsonNode c = v.get("collision");
        HashRing ring = Vectors.ring(v);
        long point = c.get("point").asLong();
        for (JsonNode vnode : c.get("vnodes")) {
            assertThat(ring.hash(vnode.asString())).isEqualTo(point);
        }
        assertThat(ring.routeHash(point)).isEqualTo(c.get("owner").asString());
        assertThat(ring.pointCount()).isLessThan((int) ring.vnodeCount());
    }

    static void assertRing(HashRing ring, JsonNode expected, String what) {
        assertThat(ring.pointCount()).as(what + " pointCount").isEqualTo(expected.get("pointCount").asInt());
        assertThat(ring.fingerprint()).as(what + " fingerprint").isEqualTo(expected.get("fingerprint").asString());
        Map<String, Long> want = new TreeMap<>();
        for (Map.Entry<String, JsonNode> e : expected.get("ownership").properties()) {
            want.put(e.getKey(), e.getValue().asLong());
        }
        Map<String, Long> got = new TreeMap<>();
        ring.ownership().shares().forEach(s -> got.put(s.node().id(), s.count()));
        assertThat(got).as(what + " ownership").isEqualTo(want);
        assertThat(ring.ownership().total()).isEqualTo(HashRing.HASH_SPACE);
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asString()));
        return out;
    }
}
