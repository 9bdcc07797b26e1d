package io.ringd.state;

import java.util.List;
import java.util.Objects;

/**
 * One named ring this process serves (docs/ring.md section 22): its name, its
 * {@link RingService} (state, history, write path), its handoff indexes, and
 * what each {@link RingPart} keeps for it.
 */
public final class ServedRing {

    private final String name;
    private final RingService service;
    private final Handoffs handoffs;
    private volatile List<Object> parts = List.of();
    private volatile LookupEvents events = LookupEvents.NONE;
    private volatile NodeLoads loads = NodeLoads.NONE;

    ServedRing(String name, RingService service, Handoffs handoffs) {
        this.name = Objects.requireNonNull(name, "name");
        this.service = Objects.requireNonNull(service, "service");
        this.handoffs = Objects.requireNonNull(handoffs, "handoffs");
    }

    /** For a ring served alone (a test, a tool): the ring {@code name} of {@code service}, without parts. */
    public static ServedRing of(String name, RingService service, Handoffs handoffs) {
        return new ServedRing(name, service, handoffs);
    }

    public String name() {
        return name;
    }

    public RingService service() {
        return service;
    }

    public Handoffs handoffs() {
        return handoffs;
    }

    /** Whether this is the ring {@code default}. */
    public boolean isDefault() {
        return RingNames.DEFAULT.equals(name);
    }

    /** What lookups report for the metrics of this ring. */
    public LookupEvents events() {
        return events;
    }

    /** This ring's node loads, for bounded-load lookups. */
    public NodeLoads loads() {
        return loads;
    }

    /** The part of {@code type} kept for this ring, or {@code null}. */
    public <T> T part(Class<T> type) {
        for (Object p : parts) {
            if (type.isInstance(p)) {
                return type.cast(p);
            }
        }
        return null;
    }

    void add(Object part) {
        if (part == null) {
            return;
        }
        List<Object> all = new java.util.ArrayList<>(parts);
        all.add(part);
        parts = List.copyOf(all);
        if (part instanceof RingListener l) {
            service.listen(l);
        }
        if (part instanceof WriteGate g) {
            service.gate(g);
        }
        if (part instanceof LookupEvents e && events == LookupEvents.NONE) {
            events = e;
        }
        if (part instanceof NodeLoads l && loads == NodeLoads.NONE) {
            loads = l;
        }
    }

    @Override
    public String toString() {
        return "ring " + name;
    }
}
