package io.ringd.state;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every ring this process serves, by name (docs/ring.md section 22): the ring
 * {@code default}, always, and those made with {@code POST /rings}. Each has
 * its own store, state, history, write lock and parts, so nothing done to one
 * changes, slows or locks another; looking a ring up is one read of a
 * concurrent map. Making and deleting rings take turns with each other, never
 * with lookups or writes of a ring.
 */
public final class Rings implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Rings.class);

    private final RingStores stores;
    private final RingSettings defaults;
    private final int historyCapacity;
    private final List<RingListener> listeners;
    private final List<RingPart> parts;
    private final Clock clock;
    private final ExpensiveReads reads;
    private final HandoffProperties handoff;
    private final int max;
    private final Snapshots snapshots;
    private final MovementGuard guard;
    private final ConcurrentHashMap<String, ServedRing> served = new ConcurrentHashMap<>();
    private final ServedRing defaultRing;
    private final Object lifecycle = new Object();

    /**
     * Loads (or makes) the ring {@code default} and every other ring the stores hold.
     *
     * @param defaults        the settings of a new ring (the start-up defaults)
     * @param listeners       told of every version of every ring (tests); parts are per ring
     * @param max             the most rings served at once, {@code default} included
     */
    public Rings(RingStores stores, RingSettings defaults, int historyCapacity, List<RingListener> listeners,
            List<RingPart> parts, Clock clock, ExpensiveReads reads, HandoffProperties handoff, int max) {
        this(stores, defaults, historyCapacity, listeners, parts, clock, reads, handoff, max, MovementGuard.OFF);
    }

    /** As above, the writes of every ring that are not forced checked by {@code guard}. */
    public Rings(RingStores stores, RingSettings defaults, int historyCapacity, List<RingListener> listeners,
            List<RingPart> parts, Clock clock, ExpensiveReads reads, HandoffProperties handoff, int max,
            MovementGuard guard) {
        this.guard = Objects.requireNonNull(guard, "guard");
        this.stores = Objects.requireNonNull(stores, "stores");
        this.defaults = Objects.requireNonNull(defaults, "defaults");
        this.historyCapacity = historyCapacity;
        this.listeners = List.copyOf(listeners);
        this.parts = List.copyOf(parts);
        this.clock = Objects.requireNonNull(clock, "clock");
        this.reads = Objects.requireNonNull(reads, "reads");
        this.handoff = Objects.requireNonNull(handoff, "handoff");
        if (max < 1) {
            throw new IllegalArgumentException("ringd.rings.max must be at least 1: " + max);
        }
        this.max = max;
        this.snapshots = new Snapshots(reads);
        synchronized (lifecycle) {
            defaultRing = serve(RingNames.DEFAULT, defaults);
            Set<String> stored;
            try {
                stored = stores.names();
            } catch (StoreUnavailableException e) {
                if (!stores.shared()) {
                    throw e;
                }
                log.warn("The rings stored in {} cannot be listed now ({}): they are served once it is reached",
                        stores.describe(), e.getMessage());
                stored = Set.of();
            }
            for (String name : new java.util.TreeSet<>(stored)) {
                if (!RingNames.DEFAULT.equals(name)) {
                    try {
                        serve(name, defaults);
                    } catch (RingNotFoundException e) {
                        log.info("The ring {} was deleted through another instance while this one started", name);
                    }
                }
            }
            stores.followNames(this::reconcile);
            stores.followReplaced(this::reload);
        }
    }

    /** The ring {@code default}. */
    public ServedRing defaultRing() {
        return defaultRing;
    }

    /**
     * The ring {@code name}.
     *
     * @throws RingNotFoundException if no ring of that name is served
     */
    public ServedRing get(String name) {
        ServedRing r = name == null ? null : served.get(name);
        if (r == null) {
            throw new RingNotFoundException(name, notFound(name));
        }
        return r;
    }

    /** What an answer says of a ring {@code name} that is not served. */
    public static String notFound(String name) {
        return "no ring is named " + name + (RingNames.valid(name) ? "" : " (not a ring name)")
                + ": GET /rings lists them, POST /rings makes one";
    }

    /** The ring {@code name}, or {@code null}. */
    public ServedRing find(String name) {
        return name == null ? null : served.get(name);
    }

    /** Every ring served, ascending name. */
    public List<ServedRing> all() {
        List<ServedRing> all = new ArrayList<>(served.values());
        all.sort(Comparator.comparing(ServedRing::name));
        return all;
    }

    /** The most rings served at once ({@code ringd.rings.max}). */
    public int max() {
        return max;
    }

    /** The stores. */
    public RingStores stores() {
        return stores;
    }

    /**
     * Makes the ring {@code name} with {@code settings} applied to the start-up defaults, durable at version 0
     * before it is served.
     *
     * @throws InvalidInputException  naming {@code name} or the setting at fault
     * @throws RingConflictException  if the name is in use or {@code ringd.rings.max} rings exist
     */
    public ServedRing create(String name, SettingsPatch settings) {
        RingNames.check(name, "name");
        RingSettings s = settings == null ? defaults : settings.applyTo(defaults);
        SettingsPatch.validate(s);
        synchronized (lifecycle) {
            if (served.containsKey(name)) {
                throw new RingConflictException("a ring named " + name + " exists already");
            }
            if (served.size() >= max) {
                throw new RingConflictException("at most " + max + " rings may exist (ringd.rings.max); delete one "
                        + "first");
            }
            Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
            PersistedState initial = new PersistedState(0, s, List.of(),
                    RingHistory.startingAt(0, s, List.of(), now), Incarnation.random());
            stores.create(name, initial);
            ServedRing r = serve(name, s);
            log.info("Made the ring {} with {} (incarnation {})", name, s, initial.incarnation());
            return r;
        }
    }

    /**
     * Deletes the ring {@code name}: its state and history go, its streams end, its parts are released.
     *
     * @throws RingNotFoundException if no ring of that name is served
     * @throws RingConflictException if it is {@code default}
     */
    public void delete(String name) {
        synchronized (lifecycle) {
            ServedRing r = get(name);
            if (r.isDefault()) {
                throw new RingConflictException("the ring default always exists and cannot be deleted");
            }
            // no write of the ring runs from here on (one in progress finishes first), so none lands in a
            // store being deleted; a delete the store refuses leaves the ring served as it was
            r.service().delete(name);
            try {
                stores.delete(name);
            } catch (RuntimeException e) {
                r.service().undelete();
                throw e;
            }
            drop(r);
            log.info("Deleted the ring {}", name);
        }
    }

    /** Serves the ring {@code name}: its parts attached, then its stored state loaded (or a new one made). */
    private ServedRing serve(String name, RingSettings initial) {
        RingService service = new RingService(stores.store(name), initial, historyCapacity, listeners, clock,
                reads, snapshots, guard, false);
        ServedRing ring = new ServedRing(name, service, new Handoffs(service, handoff, clock));
        for (RingPart p : parts) {
            ring.add(p.attach(ring));
        }
        try {
            service.start();
        } catch (RuntimeException e) {
            release(ring);
            throw e;
        }
        served.put(name, ring);
        return ring;
    }

    private void drop(ServedRing r) {
        served.remove(r.name(), r);
        r.service().delete(r.name());
        release(r);
        stores.forget(r.name());
    }

    private void release(ServedRing r) {
        for (RingPart p : parts) {
            try {
                p.detach(r);
            } catch (RuntimeException e) {
                log.warn("Releasing a part of {} failed", r, e);
            }
        }
    }

    /**
     * A shared store's names changed (another instance made or deleted a ring): serves the new ones, drops
     * those no longer stored.
     */
    void reconcile(Set<String> stored) {
        synchronized (lifecycle) {
            Set<String> want = new HashSet<>(stored);
            want.remove(RingNames.DEFAULT);
            Set<String> recheck = null;
            for (Map.Entry<String, ServedRing> e : Map.copyOf(served).entrySet()) {
                if (!e.getValue().isDefault() && !want.contains(e.getKey())) {
                    // the names were listed before this lock was taken: a ring made here since is
                    // missing from them, so a ring is dropped only when a listing made now lacks it too
                    if (recheck == null) {
                        try {
                            recheck = stores.names();
                        } catch (RuntimeException ex) {
                            log.warn("Could not list the rings again before dropping {}: {}", e.getKey(),
                                    ex.getMessage());
                            return;
                        }
                    }
                    if (recheck.contains(e.getKey())) {
                        continue;
                    }
                    log.info("The ring {} was deleted through another instance", e.getKey());
                    drop(e.getValue());
                }
            }
            for (String name : new java.util.TreeSet<>(want)) {
                if (!served.containsKey(name) && RingNames.valid(name)) {
                    try {
                        serve(name, defaults);
                        log.info("Serving the ring {}, made through another instance", name);
                    } catch (RuntimeException e) {
                        log.warn("Could not serve the ring {} made through another instance: {}", name,
                                e.getMessage());
                    }
                }
            }
        }
    }

    /**
     * The ring {@code name} changed incarnation in a shared store (deleted and made again through another
     * instance faster than this one saw): serves it afresh.
     */
    public void reload(String name) {
        synchronized (lifecycle) {
            ServedRing r = served.get(name);
            if (r == null || r.isDefault()) {
                return;
            }
            drop(r);
            serve(name, defaults);
        }
    }

    @Override
    public void close() {
        stores.close();
    }
}
