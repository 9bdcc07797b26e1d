package io.ringd.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The meters of a {@link RingClient}, tagged {@code server=<base URL>} and
 * {@code ring=<the ring's name>} (docs/ring.md section 22):
 * <ul>
 * <li>{@code ringd.client.ring.version} (gauge): the version of the verified ring held, NaN before the first
 *     and while the ring is gone;
 * <li>{@code ringd.client.ring.gone} (gauge): 1 while the server has no ring of the client's name, else 0;
 * <li>{@code ringd.client.last.heard.age} (gauge, seconds): how long since the server was last heard from;
 * <li>{@code ringd.client.lag} (timer): from a version's commit on the server to the client holding it
 *     (the two clocks' skew included);
 * <li>{@code ringd.client.reconnects} and {@code ringd.client.reloads} (counters);
 * <li>{@code ringd.client.reports} and {@code ringd.client.report.failures} (counters): follower reports
 *     (docs/ring.md section 23) the server took, and those it did not (no answer, a 503, any other status).
 * </ul>
 * A client registers them with Micrometer's global registry by itself when
 * Micrometer is on the class path (see {@link RingClientBuilder#metrics});
 * bind this to a registry of your own with {@code new RingClientMetrics(client).bindTo(registry)}.
 * This is the only class of the client that touches Micrometer, so the
 * client runs without it.
 */
public final class RingClientMetrics implements MeterBinder, AutoCloseable {

    private final RingClient client;
    private final Tags tags;
    private final List<Registered> registered = new ArrayList<>();

    /** The meters of one registry, kept to record into and to remove. */
    private record Registered(MeterRegistry registry, List<Meter> meters, Consumer<Duration> lagObserver) {
    }

    public RingClientMetrics(RingClient client) {
        this.client = Objects.requireNonNull(client, "client");
        this.tags = Tags.of("server", client.baseUrl().toString(), "ring", client.ringName());
    }

    /** Registers the meters with {@code registry}; they stay until {@link #close()}. */
    @Override
    public synchronized void bindTo(MeterRegistry registry) {
        List<Meter> meters = new ArrayList<>();
        meters.add(Gauge.builder("ringd.client.ring.version", client, c -> c.isReady() ? c.version() : Double.NaN)
                .tags(tags).description("The version of the verified ring the client holds").register(registry));
        meters.add(Gauge.builder("ringd.client.ring.gone", client, c -> c.isGone() ? 1 : 0).tags(tags)
                .description("1 while the server has no ring of the client's name (deleted, or never made)")
                .register(registry));
        meters.add(Gauge.builder("ringd.client.last.heard.age", client, c -> c.sinceLastHeard().toNanos() / 1e9)
                .tags(tags).baseUnit("seconds").description("Time since the server was last heard from")
                .register(registry));
        meters.add(FunctionCounter.builder("ringd.client.reconnects", client, RingClient::reconnects)
                .tags(tags).description("Connections made again after a failed or ended one").register(registry));
        meters.add(FunctionCounter.builder("ringd.client.reloads", client, RingClient::reloads)
                .tags(tags).description("Rings fetched whole instead of by a change").register(registry));
        meters.add(FunctionCounter.builder("ringd.client.reports", client, RingClient::reportsSent)
                .tags(tags).description("Follower reports the server took").register(registry));
        meters.add(FunctionCounter.builder("ringd.client.report.failures", client, RingClient::reportsFailed)
                .tags(tags).description("Follower reports the server did not take: no answer, or not 2xx")
                .register(registry));
        Timer lag = Timer.builder("ringd.client.lag").tags(tags)
                .description("From a version's commit on the server to the client holding it").register(registry);
        meters.add(lag);
        Consumer<Duration> observer = lag::record;
        client.addLagObserver(observer);
        registered.add(new Registered(registry, meters, observer));
    }

    /** Removes the meters from every registry this was bound to. */
    @Override
    public synchronized void close() {
        for (Registered r : registered) {
            client.removeLagObserver(r.lagObserver());
            r.meters().forEach(r.registry()::remove);
        }
        registered.clear();
    }

    /** Binds a client's meters to Micrometer's global registry; what closing removes them. */
    static AutoCloseable bindGlobal(RingClient client) {
        RingClientMetrics m = new RingClientMetrics(client);
        m.bindTo(Metrics.globalRegistry);
        return m;
    }
}
