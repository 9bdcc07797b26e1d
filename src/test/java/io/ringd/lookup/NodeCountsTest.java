package io.ringd.lookup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * {@link NodeCounts} against a {@link HashMap} of the same keys: ids that collide in the table, ids equal but
 * not identical, as many distinct ids as it was made for. Seeded ({@code -Dringd.seed} to replay).
 */
class NodeCountsTest {

    @Test
    void countsEachNodeOnce_likeAMap_seeded() {
        long seed = Long.getLong("ringd.seed", System.nanoTime());
        Random rnd = new Random(seed);
        for (int round = 0; round < 500; round++) {
            int nodes = 1 + rnd.nextInt(rnd.nextBoolean() ? 8 : 300);
            String[] ids = new String[nodes];
            for (int i = 0; i < nodes; i++) {
                ids[i] = "n-" + rnd.nextInt(1_000_000) + "-" + i;
            }
            NodeCounts counts = new NodeCounts(nodes);
            Map<String, Integer> oracle = new HashMap<>();
            int keys = rnd.nextInt(3 * nodes + 1);
            for (int k = 0; k < keys; k++) {
                String id = ids[rnd.nextInt(nodes)];
                if (rnd.nextInt(4) == 0) {
                    id = new String(id.toCharArray()); // equal, another instance
                }
                counts.add(id);
                oracle.merge(id, 1, Integer::sum);
            }
            Map<String, Integer> counted = new HashMap<>();
            counts.forEach((id, n) -> assertThat(counted.put(id, n)).as("seed %d: %s twice", seed, id).isNull());
            assertThat(counted).as("seed %d, round %d", seed, round).isEqualTo(oracle);
        }
    }
}
