package io.ringd.follow;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.ringd.state.RingPart;
import io.ringd.state.RingStores;
import io.ringd.state.ServedRing;

/**
 * Gives every ring its followers ({@link RingFollowers}) and their meters:
 * {@code ringd_followers{ring,state}}, {@code ringd_follower_apply_seconds}
 * and {@code ringd_followers_converged_share} (docs/ring.md section 23). One
 * thread recounts the followers of every ring; another posts them on the
 * boards of a shared store.
 */
@Component
@Order(-10) // before the loads, which read the followers' latencies
class FollowersParts implements RingPart, DisposableBean {

    /** The topic of the board the followers are shared on. */
    static final String BOARD = "followers";

    private final FollowersProperties props;
    private final RingStores stores;
    private final MeterRegistry meters;
    private final ScheduledThreadPoolExecutor scheduler;
    private final ExecutorService poster;

    FollowersParts(FollowersProperties props, RingStores stores, ObjectProvider<MeterRegistry> meters) {
        this.props = props;
        this.stores = stores;
        this.meters = meters.getIfAvailable();
        this.scheduler = new ScheduledThreadPoolExecutor(1, daemons("ringd-followers-"));
        this.scheduler.setRemoveOnCancelPolicy(true);
        this.poster = Executors.newSingleThreadExecutor(daemons("ringd-followers-post-"));
    }

    /** The meters of each ring, removed with it. */
    private final java.util.Map<ServedRing, List<Meter>> ringMeters = new java.util.concurrent.ConcurrentHashMap<>();

    @Override
    public Object attach(ServedRing ring) {
        Tags tags = Tags.of("ring", ring.name());
        List<Meter> registered = new ArrayList<>();
        FollowerRegistry.ApplyTimes applyTimes = FollowerRegistry.ApplyTimes.NONE;
        if (meters != null) {
            Timer apply = Timer.builder("ringd.follower.apply").tags(tags)
                    .description("From a version's commit to a follower's first report of it (appliedSeconds)")
                    .publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(1))
                    .maximumExpectedValue(Duration.ofMinutes(5)).register(meters);
            registered.add(apply);
            applyTimes = seconds -> apply.record(Duration.ofNanos((long) (seconds * 1e9)));
        }
        FollowerRegistry registry = new FollowerRegistry(ring.name(), ring.service(), props,
                System::currentTimeMillis, applyTimes);
        RingFollowers followers = new RingFollowers(ring.name(), registry, props, scheduler, poster,
                stores.board(ring.name(), BOARD));
        if (meters != null) {
            for (FollowerState s : FollowerState.values()) {
                registered.add(Gauge.builder("ringd.followers", followers, f -> count(f.summary(), s))
                        .tags(tags.and("state", s.wire()))
                        .description("Followers of the ring in each state: current, behind, diverged, silent")
                        .register(meters));
            }
            registered.add(Gauge.builder("ringd.followers.converged.share", followers,
                    f -> f.summary().convergedShare()).tags(tags)
                    .description("The share of the followers that are not silent at the ring's current version "
                            + "(1 with none)")
                    .register(meters));
        }
        ringMeters.put(ring, registered);
        return followers;
    }

    /** The followers of {@code ring}. */
    static RingFollowers of(ServedRing ring) {
        RingFollowers f = ring.part(RingFollowers.class);
        if (f == null) {
            throw new IllegalStateException("no followers kept for " + ring);
        }
        return f;
    }

    private static double count(FollowerCounts.Summary s, FollowerState state) {
        return switch (state) {
            case CURRENT -> s.current();
            case BEHIND -> s.behind();
            case DIVERGED -> s.diverged();
            case SILENT -> s.silent();
        };
    }

    @Override
    public void detach(ServedRing ring) {
        RingFollowers f = ring.part(RingFollowers.class);
        if (f != null) {
            f.close();
        }
        List<Meter> registered = ringMeters.remove(ring);
        if (meters != null && registered != null) {
            registered.forEach(meters::remove);
        }
    }

    @Override
    public void destroy() {
        scheduler.shutdownNow();
        poster.shutdownNow();
    }

    private static ThreadFactory daemons(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
