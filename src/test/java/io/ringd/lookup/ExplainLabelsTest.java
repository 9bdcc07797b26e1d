package io.ringd.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;
import io.ringd.ring.RingPoints;
import io.ringd.ring.VnodeLabels;
import io.ringd.state.BusyException;
import io.ringd.state.ExpensiveReads;

/**
 * A heavy node's labels are hashed once and then looked up, giving the
 * labels the library hashes for; a light node's are hashed per request,
 * never gated.
 */
class ExplainLabelsTest {

    @Test
    void aHeavyNode_isLabelledFromLabelsHashedOnce_asTheLibraryLabelsIt() {
        for (RingConfig config : List.of(RingConfig.of("md5", 64), RingConfig.of("murmur3", 7), RingConfig.ketama())) {
            HashRing ring = HashRing.of(config, 3, List.of(Node.of("heavy", 100), Node.of("light", 1),
                    Node.of("other", 3)));
            ExpensiveReads reads = new ExpensiveReads(1, Duration.ZERO);
            ExplainLabels labels = new ExplainLabels(reads);
            Random rnd = new Random(20261201);
            int heavy = 0;
            for (int i = 0; i < 400; i++) {
                long hash = rnd.nextLong(HashRing.HASH_SPACE);
                RingPoints.PointOwner want = RingPoints.ownerOf(ring, hash);
                assertThat(RingPoints.ownerOf(ring, hash, labels)).as("%s hash %d", config, hash).isEqualTo(want);
                heavy += VnodeLabels.labelCount(ring, want.node()) > ExplainLabels.DIRECT ? 1 : 0;
            }
            boolean heavyNode = VnodeLabels.labelCount(ring, "heavy") > ExplainLabels.DIRECT;
            assertThat(heavy).as("%s", config).isEqualTo(heavyNode ? heavy : 0);
            assertThat(reads.runs()).as("labels hashed for %s", config).isEqualTo(heavyNode && heavy > 0 ? 1 : 0);
            assertThat(labels.cached()).isEqualTo(reads.runs());
        }
    }

    @Test
    void aHeavyNodesLabels_areGated_aLightNodes_areNot() throws Exception {
        HashRing ring = HashRing.of(RingConfig.of("md5", 64), 3, List.of(Node.of("heavy", 100), Node.of("light", 1)));
        ExpensiveReads reads = new ExpensiveReads(1, Duration.ofMillis(10));
        ExplainLabels labels = new ExplainLabels(reads);
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            pool.submit(() -> reads.run("hold", () -> {
                holding.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return null;
            }));
            assertThat(holding.await(5, TimeUnit.SECONDS)).isTrue();
            long lightPoint = pointOf(ring, "light");
            long heavyPoint = pointOf(ring, "heavy");
            assertThat(labels.label(ring, "light", lightPoint)).isEqualTo(VnodeLabels.label(ring, "light", lightPoint));
            assertThatThrownBy(() -> labels.label(ring, "heavy", heavyPoint)).isInstanceOf(BusyException.class);
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    private static long pointOf(HashRing ring, String node) {
        for (int i = 0; i < ring.pointCount(); i++) {
            if (ring.ownerAt(i).equals(node)) {
                return ring.pointAt(i);
            }
        }
        throw new AssertionError(node);
    }
}
