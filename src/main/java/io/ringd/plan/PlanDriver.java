package io.ringd.plan;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ringd.ring.RingException;
import io.ringd.state.Convergence;
import io.ringd.state.HistoryDelta;
import io.ringd.state.InvalidInputException;
import io.ringd.state.PlanMark;
import io.ringd.state.PlanStore;
import io.ringd.state.RingHistory;
import io.ringd.state.RingService;
import io.ringd.state.ServedRing;
import io.ringd.state.StepConflictException;
import io.ringd.wire.ChangeJson;
import io.ringd.wire.PlanJson;
import io.ringd.wire.WireTime;

/**
 * Drives a ring's running plan on the instance its store chooses (docs/ring.md
 * section 24): at each tick, records the steps the ring's history shows made,
 * commits the next step once its interval has passed and its gate is met, and
 * pauses the plan when its gate timed out. Every change of the plans happens
 * while no write of the ring runs ({@link RingService#exclusively}); a step is
 * committed with its {@link PlanMark} in the same version, so whoever drives
 * next finds in the ring's own history which steps were made, and no step is
 * made twice.
 */
final class PlanDriver {

    private static final Logger log = LoggerFactory.getLogger(PlanDriver.class);

    private final ServedRing ring;
    private final PlanBook book;
    private final PlanStore store;
    private final Duration tick;
    private final Clock clock;
    /** Whether a plan may be running: ticks read the store only then. */
    private volatile boolean mayRun = true;
    /** When the running plan began to wait for its gate, as this instance saw it (null when not waiting). */
    private volatile Instant gateWaitSince;
    private volatile boolean closed;
    private volatile long lastWarning;

    PlanDriver(ServedRing ring, PlanBook book, PlanStore store, Duration tick, Clock clock) {
        this.ring = ring;
        this.book = book;
        this.store = store;
        this.tick = tick;
        this.clock = clock;
    }

    private RingService service() {
        return ring.service();
    }

    /** A plan may be running now (made, resumed, changed elsewhere, or this instance chosen to drive). */
    void wake() {
        mayRun = true;
    }

    /** The plan no longer waits for its gate (it was paused or ended). */
    void notWaiting() {
        gateWaitSince = null;
    }

    /** How long the running plan has waited for its gate, in seconds; 0 when it does not wait. */
    double gateWaitSeconds() {
        Instant since = gateWaitSince;
        return since == null ? 0 : Math.max(0, Duration.between(since, clock.instant()).toNanos() / 1e9);
    }

    /** Drives nothing from now on. */
    void close() {
        closed = true;
    }

    /** One look at the running plan. Never throws: a store out of reach is tried again at the next tick. */
    void tick() {
        if (closed || !mayRun || !store.leads() || service().isDeleted() || !service().isWritable()) {
            return;
        }
        try {
            PlanJson p = null;
            for (PlanJson q : book.read().plans()) {
                if (PlanStates.RUNNING.equals(q.state())) {
                    p = q;
                    break;
                }
            }
            if (p == null) {
                mayRun = false;
                gateWaitSince = null;
                return;
            }
            drive(p);
        } catch (RuntimeException e) {
            long now = System.nanoTime();
            if (now - lastWarning > 10_000_000_000L) {
                lastWarning = now;
                log.warn("The plan of ring {} could not go on now (tried again every {}): {}", ring.name(), tick,
                        e.toString());
            }
        }
    }

    private void drive(PlanJson p) {
        int k = p.currentStep();
        int n = p.steps().size();
        if (k < n && madeAlready(p, k + 1) != null) {
            record(p.id(), k + 1); // committed, its record cut short (a restart, a lost session)
            return;
        }
        if (k >= n) {
            record(p.id(), n);
            return;
        }
        if (k > 0) {
            PlanJson.Step prev = p.steps().get(k - 1);
            Instant now = clock.instant();
            Instant committedAt = WireTime.parseOrNull(prev.committedAt());
            Instant since = WireTime.parseOrNull(p.waitingSince());
            if (since == null) {
                since = committedAt;
            }
            boolean intervalOver = committedAt == null
                    || !now.isBefore(committedAt.plus(Duration.parse(p.minStepInterval())));
            if (p.gate() != null) {
                Convergence c = ring.part(Convergence.class);
                Convergence.Answer a = (c == null ? Convergence.NONE : c).converged(prev.version(),
                        p.gate().convergedShare());
                if (!a.converged()) {
                    if (gateWaitSince == null) {
                        gateWaitSince = since == null ? now : since;
                    }
                    if (since != null && !now.isBefore(since.plus(Duration.parse(p.gate().timeout())))) {
                        pauseOnGate(p.id(), k, a);
                    }
                    return;
                }
            }
            gateWaitSince = null;
            if (!intervalOver) {
                return;
            }
        }
        commit(p.id(), k + 1);
    }

    /** The history entry of step {@code k} of {@code p} when the ring made it already, else null. */
    private HistoryDelta madeAlready(PlanJson p, int k) {
        long v = PlanStates.versionBefore(p, k) + 1;
        RingHistory h = service().history();
        if (v <= h.baseVersion() || v > h.latestVersion()) {
            return null;
        }
        HistoryDelta d = h.delta(v);
        PlanMark m = d.plan();
        return m != null && m.id().equals(p.id()) && m.step() == k ? d : null;
    }

    /** Records step {@code k} of plan {@code id} as made (it is in the ring's history), or the plan as done. */
    private void record(String id, int k) {
        service().exclusively(() -> {
            PlanBook.Doc doc = book.read();
            PlanJson p = doc.find(id);
            if (p == null || !PlanStates.holds(p)) {
                return null;
            }
            if (p.currentStep() == k - 1) {
                HistoryDelta made = madeAlready(p, k);
                if (made != null) {
                    log.info("Plan {} of ring {}: step {} of {} was made as version {} before this instance drove "
                            + "it; recorded", id, ring.name(), k, p.steps().size(), made.version());
                    book.replace(doc, PlanStates.committed(p, k, made));
                }
            } else if (p.currentStep() >= p.steps().size()) {
                book.replace(doc, PlanStates.with(p, PlanStates.DONE, null, null, WireTime.format(now())));
            }
            return null;
        });
    }

    private void pauseOnGate(String id, int k, Convergence.Answer a) {
        service().exclusively(() -> {
            PlanBook.Doc doc = book.read();
            PlanJson p = doc.find(id);
            if (p == null || !PlanStates.RUNNING.equals(p.state()) || p.currentStep() != k) {
                return null;
            }
            book.replace(doc, PlanStates.with(p, PlanStates.PAUSED, PlanStates.GATE_TIMEOUT, p.waitingSince(), null));
            log.warn("Plan {} of ring {} paused at step {} of {}: its gate ({} of the followers at version {}) was "
                    + "not met within {} ({} of {} followers there, {} diverged); POST /plans/{}/resume to wait "
                    + "again, /abort to end it", id, ring.name(), k, p.steps().size(), p.gate().convergedShare(),
                    p.steps().get(k - 1).version(), p.gate().timeout(), a.atOrPast(), a.followers(), a.diverged(),
                    id);
            return null;
        });
        gateWaitSince = null;
    }

    /** Commits step {@code k} of plan {@code id}, unless the plan changed meanwhile. */
    private void commit(String id, int k) {
        service().exclusively(() -> {
            PlanBook.Doc doc = book.read();
            PlanJson p = doc.find(id);
            if (p == null || !PlanStates.RUNNING.equals(p.state()) || p.currentStep() != k - 1 || !store.leads()) {
                return null; // paused, aborted or driven elsewhere meanwhile
            }
            int n = p.steps().size();
            PlanJson.Step step = p.steps().get(k - 1);
            HistoryDelta made;
            try {
                made = service().commitStep(step.changes().stream().map(ChangeJson::toChange).toList(),
                        new PlanMark(id, k, n), PlanStates.versionBefore(p, k));
            } catch (StepConflictException e) {
                fail(doc, p, PlanStates.RING_CHANGED, e.getMessage());
                return null;
            } catch (RingException | InvalidInputException e) {
                fail(doc, p, PlanStates.STEP_REFUSED, e.getMessage());
                return null;
            }
            book.replace(doc, PlanStates.committed(p, k, made));
            log.info("Plan {} of ring {}: step {} of {} committed as version {} (moved {})", id, ring.name(), k, n,
                    made.version(), step.movedShare());
            return null;
        });
    }

    private void fail(PlanBook.Doc doc, PlanJson p, String reason, String why) {
        book.replace(doc, PlanStates.with(p, PlanStates.FAILED, reason, null, WireTime.format(now())));
        log.error("Plan {} of ring {} failed at step {} of {} ({}): {}", p.id(), ring.name(), p.currentStep() + 1,
                p.steps().size(), reason, why);
        gateWaitSince = null;
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
