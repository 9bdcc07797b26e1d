package io.ringd.plan;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.ringd.state.RingPart;
import io.ringd.state.RingStores;
import io.ringd.state.ServedRing;
import io.ringd.wire.PlanJson;

/**
 * Gives every ring its planned changes ({@link RingPlans}, which is also the
 * ring's write gate) and their meters: {@code ringd_plan_step},
 * {@code ringd_plan_steps}, {@code ringd_plan_state{state}},
 * {@code ringd_plan_gate_wait_seconds} and {@code ringd_plan_paused_on_gate}
 * (docs/ring.md section 24). One thread ticks the plans of every ring this
 * instance drives.
 */
@Component
class PlansParts implements RingPart, DisposableBean, SmartLifecycle {

    private final PlansProperties props;
    private final RingStores stores;
    private final MeterRegistry meters;
    private final ScheduledThreadPoolExecutor scheduler;
    private final Map<ServedRing, Held> held = new ConcurrentHashMap<>();
    /** Whether plans are driven: from the context's start to its stop. */
    private volatile boolean running;

    private record Held(RingPlans plans, ScheduledFuture<?> ticks, List<Meter> meters) {
    }

    PlansParts(PlansProperties props, RingStores stores, ObjectProvider<MeterRegistry> meters) {
        this.props = props;
        this.stores = stores;
        this.meters = meters.getIfAvailable();
        this.scheduler = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "ringd-plans");
            t.setDaemon(true);
            return t;
        });
        this.scheduler.setRemoveOnCancelPolicy(true);
    }

    @Override
    public Object attach(ServedRing ring) {
        RingPlans plans = new RingPlans(ring, stores.plans(ring.name()), props, Clock.systemUTC());
        List<Meter> registered = new ArrayList<>();
        if (meters != null) {
            Tags tags = Tags.of("ring", ring.name());
            registered.add(Gauge.builder("ringd.plan.step", plans, p -> step(p.latest()))
                    .tags(tags).description("The last committed step of the ring's newest plan (0 before the first, "
                            + "and with no plan)").register(meters));
            registered.add(Gauge.builder("ringd.plan.steps", plans, p -> steps(p.latest()))
                    .tags(tags).description("How many steps the ring's newest plan has (0 with no plan)")
                    .register(meters));
            for (String s : PlanStates.ALL) {
                registered.add(Gauge.builder("ringd.plan.state", plans, p -> is(p.latest(), s) ? 1 : 0)
                        .tags(tags.and("state", s)).description("1 for the state of the ring's newest plan")
                        .register(meters));
            }
            registered.add(Gauge.builder("ringd.plan.gate.wait", plans, RingPlans::gateWaitSeconds)
                    .tags(tags).baseUnit("seconds").description("How long the running plan has waited for its "
                            + "gate (the followers at its last step's version) so far; 0 when it does not wait")
                    .register(meters));
            registered.add(Gauge.builder("ringd.plan.paused.on.gate", plans, p -> pausedOnGate(p.latest()) ? 1 : 0)
                    .tags(tags).description("1 while the ring's plan is paused because its gate timed out")
                    .register(meters));
        }
        long tick = props.tick().toMillis();
        ScheduledFuture<?> ticks = scheduler.scheduleWithFixedDelay(() -> {
            if (running) {
                plans.tick();
            }
        }, tick, tick, TimeUnit.MILLISECONDS);
        held.put(ring, new Held(plans, ticks, registered));
        plans.start();
        return plans;
    }

    private static double step(PlanJson p) {
        return p == null || p.currentStep() == null ? 0 : p.currentStep();
    }

    private static double steps(PlanJson p) {
        return p == null || p.steps() == null ? 0 : p.steps().size();
    }

    private static boolean is(PlanJson p, String state) {
        return p != null && state.equals(p.state());
    }

    private static boolean pausedOnGate(PlanJson p) {
        return is(p, PlanStates.PAUSED) && PlanStates.GATE_TIMEOUT.equals(p.reason());
    }

    /** The plans of {@code ring}. */
    static RingPlans of(ServedRing ring) {
        RingPlans p = ring.part(RingPlans.class);
        if (p == null) {
            throw new IllegalStateException("no plans kept for " + ring);
        }
        return p;
    }

    @Override
    public void detach(ServedRing ring) {
        Held h = held.remove(ring);
        if (h == null) {
            return;
        }
        h.ticks().cancel(false);
        h.plans().close();
        if (meters != null) {
            h.meters().forEach(meters::remove);
        }
    }

    @Override
    public void start() {
        running = true;
    }

    /**
     * Stops driving: at shutdown, before the rings close their stores (lifecycles stop before beans go), or
     * while the context is paused; {@link #start()} drives again.
     */
    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public void destroy() {
        scheduler.shutdownNow();
        for (Held h : held.values()) {
            h.plans().close();
        }
    }
}
