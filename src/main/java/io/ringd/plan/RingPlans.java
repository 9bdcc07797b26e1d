package io.ringd.plan;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ringd.ring.Change;
import io.ringd.ring.PlanStep;
import io.ringd.ring.PlanSteps;
import io.ringd.state.InvalidInputException;
import io.ringd.state.PlanRunningException;
import io.ringd.state.PlanStore;
import io.ringd.state.RingService;
import io.ringd.state.RingState;
import io.ringd.state.ServedRing;
import io.ringd.state.StateUnreadableException;
import io.ringd.state.StoreUnavailableException;
import io.ringd.state.VersionException;
import io.ringd.state.WriteGate;
import io.ringd.web.problem.ApiException;
import io.ringd.web.problem.Problems;
import io.ringd.wire.ChangeJson;
import io.ringd.wire.PlanJson;
import io.ringd.wire.WireTime;

/**
 * The planned changes of one ring (docs/ring.md section 24): made, paused,
 * resumed and aborted through any instance ({@link RingService#exclusively},
 * so no write of the ring runs meanwhile), kept in its {@link PlanBook}, and
 * driven by its {@link PlanDriver} on the one instance the store chooses. It
 * is the ring's write gate: other writes are refused while a plan holds it.
 */
final class RingPlans implements WriteGate, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RingPlans.class);
    private static final SecureRandom IDS = new SecureRandom();

    private final ServedRing ring;
    private final PlanStore store;
    private final Clock clock;
    private final PlanBook book;
    private final PlanDriver driver;

    RingPlans(ServedRing ring, PlanStore store, PlansProperties props, Clock clock) {
        this.ring = Objects.requireNonNull(ring, "ring");
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.book = new PlanBook(store, props.keep());
        this.driver = new PlanDriver(ring, book, store, props.tick(), clock);
    }

    /**
     * Reads the stored plans once, so that a damaged document refuses the ring's start as a damaged state
     * does (a store out of reach is read later), then follows the store (another instance's changes) and
     * takes part in choosing the driver.
     *
     * @throws StateUnreadableException if the stored plans cannot be read
     */
    void start() {
        try {
            book.read();
        } catch (StoreUnavailableException e) {
            log.warn("The plans of ring {} cannot be read now ({}): read once the store is reached", ring.name(),
                    e.getMessage());
        }
        store.follow(this::changedElsewhere);
        store.lead(leads -> driver.wake());
    }

    private RingService service() {
        return ring.service();
    }

    // ------------------------------------------------------------------ reads

    /** Every plan kept, newest first. */
    List<PlanJson> list() {
        return book.read().plans();
    }

    /**
     * The plan {@code id}.
     *
     * @throws ApiException 404 {@code plan-not-found} if no plan of this ring has that id
     */
    PlanJson get(String id) {
        PlanJson p = book.read().find(id);
        if (p == null) {
            throw notFound(id);
        }
        return p;
    }

    /** The newest plan as last read, or null: for the metrics. */
    PlanJson latest() {
        return book.latest();
    }

    /** How long the running plan has waited for its gate, in seconds; 0 when it does not wait. */
    double gateWaitSeconds() {
        return driver.gateWaitSeconds();
    }

    /** One look at the running plan, by the instance that drives it. */
    void tick() {
        driver.tick();
    }

    private ApiException notFound(String id) {
        return new ApiException(Problems.PLAN_NOT_FOUND, "no plan of ring " + ring.name() + " has the id "
                + ApiException.abbreviate(id) + ": GET /plans lists them", "id");
    }

    // ------------------------------------------------------------------ the gate of other writes

    @Override
    public void check(RingState current) {
        PlanJson p = book.read().holding();
        if (p != null) {
            throw holds(p, "a membership or settings write");
        }
    }

    private PlanRunningException holds(PlanJson p, String what) {
        return new PlanRunningException(p.id(), p.state(), "the plan " + p.id() + " of ring " + ring.name() + " is "
                + p.state() + " (step " + p.currentStep() + " of " + p.steps().size() + "): " + what
                + " waits until it is done or aborted (POST /plans/" + p.id() + "/abort); nothing was changed");
    }

    // ------------------------------------------------------------------ making and changing plans

    /**
     * Makes a plan of {@code request} from the ring as it is now and starts it, or, for a dry run, answers
     * it and stores nothing.
     *
     * @param ifMatch the version the ring must be at, or null
     */
    PlanJson create(PlanRequest request, boolean dryRun, Long ifMatch) {
        List<Change> changes = request.toChanges();
        double budget = request.budget();
        Duration interval = request.interval();
        Double gateShare = request.gateShare();
        Duration gateTimeout = request.gateTimeout();
        PlanJson.Gate gate = gateShare == null ? null : new PlanJson.Gate(gateShare, gateTimeout.toString());
        if (dryRun) { // a read: what a plan made now would do, even while another holds the ring
            RingState cur = service().current();
            checkIfMatch(ifMatch, cur);
            return planned(cur, null, changes, budget, interval, gate);
        }
        PlanJson made = service().exclusively(() -> {
            RingState cur = service().current();
            checkIfMatch(ifMatch, cur);
            PlanBook.Doc doc = book.read();
            PlanJson holding = doc.holding();
            if (holding != null) {
                throw holds(holding, "another plan");
            }
            PlanJson plan = planned(cur, newId(doc), changes, budget, interval, gate);
            List<PlanJson> plans = new ArrayList<>(doc.plans().size() + 1);
            plans.add(plan);
            plans.addAll(doc.plans());
            book.write(doc, plans);
            log.info("Plan {} of ring {}: {} steps from version {} within {} each ({} moved directly, {} in all)",
                    plan.id(), ring.name(), plan.steps().size(), cur.version(), budget, plan.movedShare(),
                    plan.stepsMovedShare());
            return plan;
        });
        driver.wake();
        return made;
    }

    /**
     * The plan of {@code changes} from {@code cur}: running as {@code id}, or a dry run's (id and state null)
     * when {@code id} is null.
     */
    private PlanJson planned(RingState cur, String id, List<Change> changes, double budget, Duration interval,
            PlanJson.Gate gate) {
        PlanSteps planned;
        try {
            planned = PlanSteps.of(cur.ring(), changes, budget);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("changes", e.getMessage());
        }
        if (planned.steps().isEmpty()) {
            throw new InvalidInputException("changes", "the changes change nothing at version " + cur.version()
                    + " (every node is put as it already is): a plan needs at least one step");
        }
        List<PlanJson.Step> steps = new ArrayList<>(planned.steps().size());
        int n = 1;
        for (PlanStep s : planned.steps()) {
            steps.add(new PlanJson.Step(n++, s.changes().stream().map(ChangeJson::of).toList(), s.movedShare(),
                    s.overBudget(), null, null));
        }
        return new PlanJson(id, ring.name(), id == null ? null : PlanStates.RUNNING, null, WireTime.format(now()),
                changes.stream().map(ChangeJson::of).toList(), budget, interval.toString(), gate,
                planned.movedShare(), planned.stepsMovedShare(), List.copyOf(steps), 0, cur.version(), null, null);
    }

    private static void checkIfMatch(Long ifMatch, RingState cur) {
        if (ifMatch != null && ifMatch != cur.version()) {
            throw new VersionException.Mismatch(ifMatch, cur.version());
        }
    }

    private static String newId(PlanBook.Doc doc) {
        while (true) {
            byte[] b = new byte[6];
            IDS.nextBytes(b);
            String id = HexFormat.of().formatHex(b);
            if (doc.find(id) == null) {
                return id;
            }
        }
    }

    /** Pauses the running plan {@code id}. */
    PlanJson pause(String id) {
        return change(id, "paused", List.of(PlanStates.RUNNING),
                p -> PlanStates.with(p, PlanStates.PAUSED, PlanStates.ADMIN, p.waitingSince(), null));
    }

    /** Resumes the paused plan {@code id}: its gate's timeout counts from now. */
    PlanJson resume(String id) {
        PlanJson p = change(id, "resumed", List.of(PlanStates.PAUSED), q -> PlanStates.with(q, PlanStates.RUNNING,
                null, q.currentStep() > 0 ? WireTime.format(now()) : null, null));
        driver.wake();
        return p;
    }

    /** Aborts the running or paused plan {@code id}, keeping the steps made. */
    PlanJson abort(String id) {
        return change(id, "aborted", List.of(PlanStates.RUNNING, PlanStates.PAUSED),
                p -> PlanStates.with(p, PlanStates.ABORTED, PlanStates.ADMIN, null, WireTime.format(now())));
    }

    private PlanJson change(String id, String verb, List<String> from, UnaryOperator<PlanJson> to) {
        PlanJson changed = service().exclusively(() -> {
            PlanBook.Doc doc = book.read();
            PlanJson p = doc.find(id);
            if (p == null) {
                throw notFound(id);
            }
            if (!from.contains(p.state())) {
                throw new ApiException(Problems.PLAN_STATE, "the plan " + id + " is " + p.state() + ": only a "
                        + String.join(" or ", from) + " plan can be " + verb, "state");
            }
            PlanJson next = to.apply(p);
            book.replace(doc, next);
            log.info("Plan {} of ring {} {} at step {} of {}", id, ring.name(), verb, p.currentStep(),
                    p.steps().size());
            return next;
        });
        if (!PlanStates.RUNNING.equals(changed.state())) {
            driver.notWaiting();
        }
        return changed;
    }

    // ------------------------------------------------------------------ elsewhere

    /** Another instance may have changed the plans: the next tick looks. */
    private void changedElsewhere() {
        driver.wake();
        try {
            book.read();
        } catch (RuntimeException e) {
            log.debug("Could not read the plans of ring {} after a change: {}", ring.name(), e.toString());
        }
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    @Override
    public void close() {
        driver.close();
        store.close();
    }
}
