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
import io.ringd.ring.RingException;
import io.ringd.state.Convergence;
import io.ringd.state.HistoryDelta;
import io.ringd.state.InvalidInputException;
import io.ringd.state.PlanMark;
import io.ringd.state.PlanRunningException;
import io.ringd.state.PlanStore;
import io.ringd.state.RingHistory;
import io.ringd.state.RingService;
import io.ringd.state.RingState;
import io.ringd.state.ServedRing;
import io.ringd.state.StepConflictException;
import io.ringd.state.StoreUnavailableException;
import io.ringd.state.VersionException;
import io.ringd.state.WriteGate;
import io.ringd.web.problem.ApiException;
import io.ringd.web.problem.Problems;
import io.ringd.wire.ChangeJson;
import io.ringd.wire.PlanJson;
import io.ringd.wire.WireJson;
import io.ringd.wire.WireTime;
import tools.jackson.databind.json.JsonMapper;

/**
 * The planned changes of one ring (docs/ring.md section 24): made, paused,
 * resumed and aborted through any instance, driven by one. Every change of
 * a plan's document happens while no write of the ring runs
 * ({@link RingService#exclusively}), and a step is committed with its
 * {@link PlanMark} in the same version, so whoever drives next (after a
 * restart, or another instance after a lost session) finds from the ring's
 * own history which steps were made, and no step is made twice.
 */
final class RingPlans implements WriteGate, AutoCloseable {

    static final String RUNNING = "running";
    static final String PAUSED = "paused";
    static final String DONE = "done";
    static final String ABORTED = "aborted";
    static final String FAILED = "failed";
    /** Every state, in the order the metrics list them. */
    static final List<String> STATES = List.of(RUNNING, PAUSED, DONE, ABORTED, FAILED);

    static final String GATE_TIMEOUT = "gate-timeout";

    private static final Logger log = LoggerFactory.getLogger(RingPlans.class);
    private static final SecureRandom IDS = new SecureRandom();
    private static final int FORMAT = 1;

    private final ServedRing ring;
    private final PlanStore store;
    private final PlansProperties props;
    private final Clock clock;
    private final JsonMapper json = WireJson.strict();
    /** Whether a plan may be running: ticks read the store only then. */
    private volatile boolean mayRun = true;
    /** The newest plan, as last read: for the metrics. */
    private volatile PlanJson latest;
    /** When the newest plan began to wait for its gate, as this instance saw it (null when not waiting). */
    private volatile Instant gateWaitSince;
    private volatile boolean closed;
    private volatile long lastWarning;

    RingPlans(ServedRing ring, PlanStore store, PlansProperties props, Clock clock) {
        this.ring = Objects.requireNonNull(ring, "ring");
        this.store = Objects.requireNonNull(store, "store");
        this.props = Objects.requireNonNull(props, "props");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Starts following the store (another instance's changes) and taking part in choosing the driver. */
    void start() {
        store.follow(this::changedElsewhere);
        store.lead(leads -> mayRun = true);
    }

    private RingService service() {
        return ring.service();
    }

    // ------------------------------------------------------------------ the document

    /** The plans stored, newest first, and the stamp to replace them with. */
    private record Doc(List<PlanJson> plans, long stamp) {

        PlanJson find(String id) {
            for (PlanJson p : plans) {
                if (p.id().equals(id)) {
                    return p;
                }
            }
            return null;
        }

        /** The running or paused plan, or null. */
        PlanJson holding() {
            for (PlanJson p : plans) {
                if (RUNNING.equals(p.state()) || PAUSED.equals(p.state())) {
                    return p;
                }
            }
            return null;
        }
    }

    private Doc read() {
        PlanStore.Stored s = store.read();
        if (s.document() == null) {
            return new Doc(List.of(), s.stamp());
        }
        PlanJson.Document d;
        try {
            d = json.readValue(s.document(), PlanJson.Document.class);
        } catch (RuntimeException e) {
            throw new IllegalStateException("the plans in " + store.describe() + " cannot be read: " + e.getMessage(),
                    e);
        }
        List<PlanJson> plans = d.plans() == null ? List.of() : List.copyOf(d.plans());
        if (!plans.isEmpty()) {
            latest = plans.get(0);
        }
        return new Doc(plans, s.stamp());
    }

    /** Stores {@code plans} in place of {@code doc}'s (the oldest ended ones dropped past the limit). */
    private void write(Doc doc, List<PlanJson> plans) {
        List<PlanJson> kept = new ArrayList<>(plans);
        for (int i = kept.size() - 1; i >= 0 && kept.size() > props.keep(); i--) {
            String s = kept.get(i).state();
            if (!RUNNING.equals(s) && !PAUSED.equals(s)) {
                kept.remove(i);
            }
        }
        if (!store.write(json.writeValueAsBytes(new PlanJson.Document(FORMAT, kept)), doc.stamp())) {
            throw new StoreUnavailableException("the plans in " + store.describe() + " changed meanwhile",
                    "the plans were changed through another instance at the same moment: nothing was changed; "
                    + "try again", null);
        }
        if (!kept.isEmpty()) {
            latest = kept.get(0);
        }
    }

    /** {@code doc}'s plans with {@code plan} in place of the one of its id. */
    private static List<PlanJson> replace(Doc doc, PlanJson plan) {
        List<PlanJson> out = new ArrayList<>(doc.plans().size());
        for (PlanJson p : doc.plans()) {
            out.add(p.id().equals(plan.id()) ? plan : p);
        }
        return out;
    }

    // ------------------------------------------------------------------ reads

    /** Every plan kept, newest first. */
    List<PlanJson> list() {
        return read().plans();
    }

    /**
     * The plan {@code id}.
     *
     * @throws ApiException 404 {@code plan-not-found} if no plan of this ring has that id
     */
    PlanJson get(String id) {
        PlanJson p = read().find(id);
        if (p == null) {
            throw notFound(id);
        }
        return p;
    }

    /** The newest plan as last read, or null: for the metrics. */
    PlanJson latest() {
        return latest;
    }

    /** How long the running plan has waited for its gate, in seconds; 0 when it does not wait. */
    double gateWaitSeconds() {
        Instant since = gateWaitSince;
        return since == null ? 0 : Math.max(0, Duration.between(since, clock.instant()).toNanos() / 1e9);
    }

    private ApiException notFound(String id) {
        return new ApiException(Problems.PLAN_NOT_FOUND, "no plan of ring " + ring.name() + " has the id "
                + ApiException.abbreviate(id) + ": GET /plans lists them", "id");
    }

    // ------------------------------------------------------------------ the gate of other writes

    @Override
    public void check(RingState current) {
        PlanJson p = read().holding();
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
        PlanJson made = service().exclusively(() -> {
            RingState cur = service().current();
            if (ifMatch != null && ifMatch != cur.version()) {
                throw new VersionException.Mismatch(ifMatch, cur.version());
            }
            Doc doc = read();
            PlanJson holding = doc.holding();
            if (holding != null && !dryRun) { // a dry run says what a plan made now would do
                throw holds(holding, "another plan");
            }
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
            String now = WireTime.format(now());
            PlanJson plan = new PlanJson(dryRun ? null : newId(doc), ring.name(), dryRun ? null : RUNNING, null, now,
                    changes.stream().map(ChangeJson::of).toList(), budget, interval.toString(),
                    gateShare == null ? null : new PlanJson.Gate(gateShare, gateTimeout.toString()),
                    planned.movedShare(), planned.stepsMovedShare(), List.copyOf(steps), 0, cur.version(), null,
                    null);
            if (!dryRun) {
                List<PlanJson> plans = new ArrayList<>(doc.plans().size() + 1);
                plans.add(plan);
                plans.addAll(doc.plans());
                write(doc, plans);
                log.info("Plan {} of ring {}: {} steps from version {} within {} each ({} moved directly, {} in all)",
                        plan.id(), ring.name(), steps.size(), cur.version(), budget, planned.movedShare(),
                        planned.stepsMovedShare());
            }
            return plan;
        });
        if (!dryRun) {
            mayRun = true;
        }
        return made;
    }

    private static String newId(Doc doc) {
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
        return change(id, "paused", List.of(RUNNING), p -> with(p, PAUSED, "admin", p.waitingSince(), null));
    }

    /** Resumes the paused plan {@code id}: its gate's timeout counts from now. */
    PlanJson resume(String id) {
        PlanJson p = change(id, "resumed", List.of(PAUSED), q -> with(q, RUNNING, null,
                q.currentStep() > 0 ? WireTime.format(now()) : null, null));
        mayRun = true;
        return p;
    }

    /** Aborts the running or paused plan {@code id}, keeping the steps made. */
    PlanJson abort(String id) {
        return change(id, "aborted", List.of(RUNNING, PAUSED),
                p -> with(p, ABORTED, "admin", null, WireTime.format(now())));
    }

    private PlanJson change(String id, String verb, List<String> from, UnaryOperator<PlanJson> to) {
        PlanJson changed = service().exclusively(() -> {
            Doc doc = read();
            PlanJson p = doc.find(id);
            if (p == null) {
                throw notFound(id);
            }
            if (!from.contains(p.state())) {
                throw new ApiException(Problems.PLAN_STATE, "the plan " + id + " is " + p.state() + ": only a "
                        + String.join(" or ", from) + " plan can be " + verb, "state");
            }
            PlanJson next = to.apply(p);
            write(doc, replace(doc, next));
            log.info("Plan {} of ring {} {} at step {} of {}", id, ring.name(), verb, p.currentStep(),
                    p.steps().size());
            return next;
        });
        if (!RUNNING.equals(changed.state())) {
            gateWaitSince = null;
        }
        return changed;
    }

    private static PlanJson with(PlanJson p, String state, String reason, String waitingSince, String endedAt) {
        return new PlanJson(p.id(), p.ring(), state, reason, p.createdAt(), p.changes(), p.maxMovedShare(),
                p.minStepInterval(), p.gate(), p.movedShare(), p.stepsMovedShare(), p.steps(), p.currentStep(),
                p.baseVersion(), waitingSince, endedAt);
    }

    /** {@code p} with step {@code k} committed as {@code made}. */
    private static PlanJson committed(PlanJson p, int k, HistoryDelta made) {
        List<PlanJson.Step> steps = new ArrayList<>(p.steps());
        PlanJson.Step s = steps.get(k - 1);
        String at = WireTime.format(made.committedAt());
        steps.set(k - 1, new PlanJson.Step(s.step(), s.changes(), s.movedShare(), s.overBudget(), made.version(), at));
        boolean last = k == steps.size();
        return new PlanJson(p.id(), p.ring(), last ? DONE : p.state(), p.reason(), p.createdAt(), p.changes(),
                p.maxMovedShare(), p.minStepInterval(), p.gate(), p.movedShare(), p.stepsMovedShare(),
                List.copyOf(steps), k, p.baseVersion(), last ? null : at, last ? at : null);
    }

    // ------------------------------------------------------------------ driving

    /** Another instance may have changed the plans: the next tick looks. */
    private void changedElsewhere() {
        mayRun = true;
        try {
            read();
        } catch (RuntimeException e) {
            log.debug("Could not read the plans of ring {} after a change: {}", ring.name(), e.toString());
        }
    }

    /**
     * One look at the running plan, by the instance that drives it: records
     * the steps the ring's history shows made, commits the next step when its
     * interval has passed and its gate is met, pauses it when the gate timed
     * out. Never throws: a store out of reach is tried again at the next tick.
     */
    void tick() {
        if (closed || !mayRun || !store.leads() || service().isDeleted() || !service().isWritable()) {
            return;
        }
        try {
            Doc doc = read();
            PlanJson p = null;
            for (PlanJson q : doc.plans()) {
                if (RUNNING.equals(q.state())) {
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
                log.warn("The plan of ring {} could not go on now (tried again every {}): {}", ring.name(),
                        props.tick(), e.toString());
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
                    Duration timeout = Duration.parse(p.gate().timeout());
                    if (since != null && !now.isBefore(since.plus(timeout))) {
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
        long after = k == 1 ? p.baseVersion() : p.steps().get(k - 2).version();
        RingHistory h = service().history();
        if (after + 1 <= h.baseVersion() || after + 1 > h.latestVersion()) {
            return null;
        }
        HistoryDelta d = h.delta(after + 1);
        PlanMark m = d.plan();
        return m != null && m.id().equals(p.id()) && m.step() == k ? d : null;
    }

    /** Records step {@code k} of plan {@code id} as made (it is in the ring's history), or the plan as done. */
    private void record(String id, int k) {
        service().exclusively(() -> {
            Doc doc = read();
            PlanJson p = doc.find(id);
            if (p == null || !RUNNING.equals(p.state()) && !PAUSED.equals(p.state())) {
                return null;
            }
            if (p.currentStep() == k - 1) {
                HistoryDelta made = madeAlready(p, k);
                if (made != null) {
                    log.info("Plan {} of ring {}: step {} of {} was made as version {} before this instance drove "
                            + "it; recorded", id, ring.name(), k, p.steps().size(), made.version());
                    write(doc, replace(doc, committed(p, k, made)));
                }
            } else if (p.currentStep() >= p.steps().size()) {
                write(doc, replace(doc, with(p, DONE, null, null, WireTime.format(now()))));
            }
            return null;
        });
    }

    private void pauseOnGate(String id, int k, Convergence.Answer a) {
        service().exclusively(() -> {
            Doc doc = read();
            PlanJson p = doc.find(id);
            if (p == null || !RUNNING.equals(p.state()) || p.currentStep() != k) {
                return null;
            }
            write(doc, replace(doc, with(p, PAUSED, GATE_TIMEOUT, p.waitingSince(), null)));
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
            Doc doc = read();
            PlanJson p = doc.find(id);
            if (p == null || !RUNNING.equals(p.state()) || p.currentStep() != k - 1 || !store.leads()) {
                return null; // paused, aborted or driven elsewhere meanwhile
            }
            int n = p.steps().size();
            long after = k == 1 ? p.baseVersion() : p.steps().get(k - 2).version();
            PlanJson.Step step = p.steps().get(k - 1);
            HistoryDelta made;
            try {
                made = service().commitStep(step.changes().stream().map(ChangeJson::toChange).toList(),
                        new PlanMark(id, k, n), after);
            } catch (StepConflictException e) {
                fail(doc, p, "ring-changed", e.getMessage());
                return null;
            } catch (RingException | InvalidInputException e) {
                fail(doc, p, "step-refused", e.getMessage());
                return null;
            }
            write(doc, replace(doc, committed(p, k, made)));
            log.info("Plan {} of ring {}: step {} of {} committed as version {} (moved {})", id, ring.name(), k, n,
                    made.version(), step.movedShare());
            return null;
        });
    }

    private void fail(Doc doc, PlanJson p, String reason, String why) {
        write(doc, replace(doc, with(p, FAILED, reason, null, WireTime.format(now()))));
        log.error("Plan {} of ring {} failed at step {} of {} ({}): {}", p.id(), ring.name(), p.currentStep() + 1,
                p.steps().size(), reason, why);
        gateWaitSince = null;
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    @Override
    public void close() {
        closed = true;
        store.close();
    }
}
