package io.ringd.metrics;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.ringd.ring.Ownership;
import io.ringd.state.LookupEvents;
import io.ringd.state.MovementRefusedException;
import io.ringd.state.NodeLoads;
import io.ringd.state.RingListener;
import io.ringd.state.RingPart;
import io.ringd.state.RingService;
import io.ringd.state.RingState;
import io.ringd.state.ServedRing;

/**
 * The rings' Prometheus metrics, every one tagged {@code ring} (docs/ring.md
 * section 22). Each ring has its own {@link Meters}, made when it is served
 * and removed when it is deleted. Meters of a ring are registered when a
 * snapshot is swapped in (and those of nodes that left are removed); the
 * request path only looks a counter up in an immutable map and increments it.
 */
@Component
@Order(10) // after the loads, which a ring's meters export
public class RingMetrics implements RingPart {

    /*
     * Names as Prometheus shows them, each with ring="<name>": ringd_ring_version, ringd_nodes,
     * ringd_points, ringd_routes_total{node}, ringd_ownership_share{node},
     * ringd_node_points{node}, ringd_node_weight{node}, ringd_node_load{node},
     * ringd_bounded_routes_total, ringd_bounded_skips_total,
     * ringd_membership_changes_total{op}, ringd_stale_requests_total, ringd_clients_ahead_total,
     * ringd_client_version_lag (summary with buckets), ringd_store_apply_seconds,
     * ringd_store_writable, ringd_ring_loaded, ringd_guard_refusals_total and
     * ringd_ring_info{fingerprint,hash,algorithm}.
     *
     * Swaps of one ring arrive one at a time on its writer's thread (its RingService holds
     * its write lock), so the maps of its Meters are only ever replaced whole.
     */

    private final MeterRegistry registry;

    public RingMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public Object attach(ServedRing ring) {
        return new Meters(registry, ring.name(), ring.service(), ring.loads());
    }

    @Override
    public void detach(ServedRing ring) {
        Meters m = ring.part(Meters.class);
        if (m != null) {
            m.remove();
        }
    }

    /** The meters of one ring. */
    public static final class Meters implements RingListener, LookupEvents {

        private final MeterRegistry registry;
        private final Tags tags;
        private final NodeLoads loads;
        private final Counter stale;
        private final Counter ahead;
        private final Counter boundedRoutes;
        private final Counter boundedSkips;
        private final Counter guardRefusals;
        private final DistributionSummary lag;
        private final Map<RingListener.Op, Counter> changes = new EnumMap<>(RingListener.Op.class);
        /** From a version's commit by another instance to its swap here (shared stores only). */
        private final io.micrometer.core.instrument.Timer followed;
        private final List<Meter> fixed = new ArrayList<>();

        private volatile long version = -1;
        private volatile int nodes;
        private volatile int points;
        /** Per node meters of the current version; replaced whole on each swap. */
        private volatile Map<String, NodeMeters> byNode = Map.of();
        private Gauge info;
        private volatile boolean removed;

        Meters(MeterRegistry registry, String ring, RingService service, NodeLoads loads) {
            this.registry = registry;
            this.tags = Tags.of("ring", ring);
            this.loads = loads;
            fixed.add(Gauge.builder("ringd.ring.version", this, m -> m.version).tags(tags)
                    .description("The ring version this instance serves").register(registry));
            fixed.add(Gauge.builder("ringd.nodes", this, m -> m.nodes).tags(tags).description("Members of the ring")
                    .register(registry));
            fixed.add(Gauge.builder("ringd.points", this, m -> m.points).tags(tags)
                    .description("Points on the ring, after collisions").register(registry));
            fixed.add(Gauge.builder("ringd.store.writable", service, r -> r.isWritable() ? 1 : 0).tags(tags)
                    .description("1 when the ring's store accepts writes; 0 while a shared store is out of reach")
                    .register(registry));
            fixed.add(Gauge.builder("ringd.ring.loaded", service, r -> r.isLoaded() ? 1 : 0).tags(tags)
                    .description("1 once a ring is loaded; 0 for an instance that never reached its shared store")
                    .register(registry));
            this.stale = add(Counter.builder("ringd.stale.requests").tags(tags)
                    .description("Requests from clients that sent an older X-Ring-Version").register(registry));
            this.ahead = add(Counter.builder("ringd.clients.ahead").tags(tags)
                    .description("Requests from clients that sent an X-Ring-Version ahead of this instance's "
                            + "(they have seen another ring or a newer instance)").register(registry));
            this.lag = add(DistributionSummary.builder("ringd.client.version.lag").tags(tags)
                    .description("How many versions behind a stale client is")
                    .serviceLevelObjectives(1, 2, 3, 5, 10, 20, 50, 100, 1000)
                    .register(registry));
            this.boundedRoutes = add(Counter.builder("ringd.bounded.routes").tags(tags)
                    .description("Keys answered by /route with bound at the current version").register(registry));
            this.boundedSkips = add(Counter.builder("ringd.bounded.skips").tags(tags)
                    .description("Nodes passed over by those answers, over their bound").register(registry));
            this.followed = add(io.micrometer.core.instrument.Timer.builder("ringd.store.apply").tags(tags)
                    .description("From a version's commit by another instance to this instance serving it")
                    .publishPercentileHistogram().minimumExpectedValue(java.time.Duration.ofNanos(100_000))
                    .maximumExpectedValue(java.time.Duration.ofSeconds(60)).register(registry));
            this.guardRefusals = add(Counter.builder("ringd.guard.refusals").tags(tags)
                    .description("Writes through this instance refused by the movement guard "
                            + "(ringd.guard.max-moved-share): they would have moved more")
                    .register(registry));
            for (RingListener.Op op : new RingListener.Op[] {Op.PUT, Op.REMOVE, Op.BATCH, Op.SETTINGS}) {
                changes.put(op, add(Counter.builder("ringd.membership.changes").tags(tags)
                        .tag("op", op.name().toLowerCase())
                        .description("Accepted changes that made a new version, by operation").register(registry)));
            }
        }

        private <M extends Meter> M add(M meter) {
            fixed.add(meter);
            return meter;
        }

        @Override
        public synchronized void ringSwapped(RingState previous, RingState current, Op op) {
            if (removed) {
                return;
            }
            if (op == Op.FOLLOW && current.committedAt() != null) {
                followed.record(java.time.Duration.between(current.committedAt(), java.time.Instant.now()).abs());
            }
            Ownership ownership = current.ring().ownership();
            Map<String, NodeMeters> old = byNode;
            Map<String, NodeMeters> next = new HashMap<>();
            for (Ownership.Share s : ownership.shares()) {
                String id = s.node().id();
                NodeMeters m = old.get(id);
                if (m == null) {
                    m = new NodeMeters(registry, tags, id, loads);
                }
                m.ownershipShare = s.share();
                m.nodePoints = s.points();
                m.weight = s.node().weight();
                next.put(id, m);
            }
            old.forEach((id, m) -> {
                if (!next.containsKey(id)) {
                    m.removeFrom(registry);
                }
            });
            if (info != null) {
                registry.remove(info);
            }
            info = Gauge.builder("ringd.ring.info", () -> 1).tags(tags)
                    .tag("fingerprint", current.fingerprint())
                    .tag("hash", current.settings().hash())
                    .tag("algorithm", current.settings().algorithm())
                    .description("The ring this instance serves; compare fingerprints across instances")
                    .register(registry);
            byNode = Map.copyOf(next);
            nodes = current.nodes().size();
            points = current.ring().pointCount();
            version = current.version();
            Counter c = changes.get(op);
            if (c != null) {
                c.increment();
            }
        }

        @Override
        public void movementRefused(RingState current, Op op, MovementRefusedException refusal) {
            if (!removed) {
                guardRefusals.increment();
            }
        }

        /** Removes every meter of this ring (it was deleted). */
        synchronized void remove() {
            removed = true;
            fixed.forEach(registry::remove);
            byNode.values().forEach(m -> m.removeFrom(registry));
            byNode = Map.of();
            if (info != null) {
                registry.remove(info);
                info = null;
            }
        }

        /** One look-up and one increment for the {@code count} keys. */
        @Override
        public void routed(long atVersion, String node, int count) {
            if (count > 0 && atVersion == version) {
                NodeMeters m = byNode.get(node);
                if (m != null) {
                    m.routes.increment(count);
                }
            }
        }

        @Override
        public void bounded(long atVersion, int skipped) {
            if (atVersion == version) {
                boundedRoutes.increment();
                boundedSkips.increment(skipped);
            }
        }

        @Override
        public void stale(long versionsBehind) {
            stale.increment();
            lag.record(versionsBehind);
        }

        @Override
        public void ahead() {
            ahead.increment();
        }
    }

    /** The meters of one node; the gauges read the volatile fields. */
    static final class NodeMeters {
        final Counter routes;
        final Gauge share;
        final Gauge pointsGauge;
        final Gauge weightGauge;
        final Gauge loadGauge;
        volatile double ownershipShare;
        volatile double nodePoints;
        volatile double weight;

        NodeMeters(MeterRegistry registry, Tags ring, String node, NodeLoads loads) {
            Tags tags = ring.and("node", node);
            routes = Counter.builder("ringd.routes").tags(tags)
                    .description("Keys answered with this node by /route at the current version").register(registry);
            share = Gauge.builder("ringd.ownership.share", this, m -> m.ownershipShare).tags(tags)
                    .description("Share of the hash space this node owns").register(registry);
            pointsGauge = Gauge.builder("ringd.node.points", this, m -> m.nodePoints).tags(tags)
                    .description("Ring points this node owns, after collisions").register(registry);
            weightGauge = Gauge.builder("ringd.node.weight", this, m -> m.weight).tags(tags)
                    .description("This node's weight").register(registry);
            loadGauge = Gauge.builder("ringd.node.load", loads, l -> l.load(node)).tags(tags)
                    .description("This node's load as bounded lookups see it: reported, or its decayed count")
                    .strongReference(true).register(registry);
        }

        void removeFrom(MeterRegistry registry) {
            for (Meter m : new Meter[] {routes, share, pointsGauge, weightGauge, loadGauge}) {
                registry.remove(m);
            }
        }
    }
}
