package io.ringd.metrics;

import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.stereotype.Component;

import io.ringd.state.RingService;
import io.ringd.state.Rings;
import io.ringd.state.ServedRing;

/**
 * The ring's health ({@code /actuator/health}, component {@code ring}, part
 * of the readiness group): UP when a ring is loaded and its store accepts
 * writes; DEGRADED (still answering 200, still ready) when lookups go on from
 * the last ring but writes are refused because a shared store is out of
 * reach, or because it lost the ring served here (it holds none, or
 * another incarnation: the detail {@code cause} says which, until an
 * operator re-seeds it); OUT_OF_SERVICE (not ready) while no ring was ever
 * loaded.
 */
@Component("ring")
class RingHealth implements HealthIndicator {

    /** Lookups work, writes do not. */
    static final Status DEGRADED = new Status("DEGRADED", "lookups answer from the last ring; writes are refused");

    private final Rings rings;

    RingHealth(Rings rings) {
        this.rings = rings;
    }

    /**
     * The ring {@code default}'s health, as before named rings, and the other rings': DEGRADED too when one
     * of them refuses writes (named in {@code notWritable}).
     */
    @Override
    public Health health() {
        RingService ring = rings.defaultRing().service();
        List<String> notWritable = new ArrayList<>();
        List<ServedRing> all = rings.all();
        for (ServedRing r : all) {
            if (!r.isDefault() && !r.service().isWritable()) {
                notWritable.add(r.name());
            }
        }
        Health.Builder b = !ring.isLoaded() ? Health.outOfService()
                : ring.isWritable() && notWritable.isEmpty() ? Health.up() : Health.status(DEGRADED);
        b.withDetail("rings", all.size());
        if (!notWritable.isEmpty()) {
            b.withDetail("notWritable", notWritable);
        }
        b.withDetail("loaded", ring.isLoaded())
                .withDetail("writable", ring.isWritable())
                .withDetail("version", ring.current().version())
                .withDetail("store", ring.store().shared() ? "shared" : "local");
        if (ring.current().incarnation() != null) {
            b.withDetail("incarnation", ring.current().incarnation());
        }
        String lost = ring.store().lostBecause();
        if (lost != null) {
            b.withDetail("cause", lost + "; lookups answer from the ring held here, writes are refused until an "
                    + "operator re-seeds the store (POST /store/reseed)");
        }
        return b.build();
    }
}
