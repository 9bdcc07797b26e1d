package io.ringd.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import io.ringd.Membership;
import io.ringd.PlanChecks;
import io.ringd.RingdProcess;
import io.ringd.watch.EventStream;
import io.ringd.wire.ChangeEventJson;
import io.ringd.wire.PlanJson;
import io.ringd.wire.WireTime;

/**
 * Planned changes (docs/ring.md section 24) on ZooKeeper when the instance
 * driving them dies: three ringd processes (the real jar) share a ring on a
 * real ZooKeeper server (curator-test, in this JVM) with a 4 s session
 * timeout; a plan is made through any of them, and the one that drives it
 * (its log says it holds the driver's latch) is killed with SIGKILL, at a
 * random moment, right as a step's version appears, or around the moment
 * the next step is due, and a new instance is started in its place, round
 * after round. After each kill another instance goes on with the plan
 * within about the session timeout (the times are printed); each plan ends
 * done with every step committed exactly once ({@link PlanChecks#checkDone}),
 * as every instance serves it. Seeded: the seed is printed,
 * {@code -Dringd.seed=N} replays the choices (not the timing); the kills
 * are half of {@code -Dringd.crash.rounds} (4 in {@code ./mvnw verify}, 20
 * from {@code .ci/run}), at least 3.
 */
@Timeout(600)
@EnabledIfSystemProperty(named = "ringd.jar", matches = ".+",
        disabledReason = "run by failsafe in verify, once package has built the jar (pom.xml sets the property)")
class ZooKeeperPlanFailoverIT {

    static final String TOKEN = "zookeeper-plan-failover-admin-token-0123456789";
    static final String PATH = "/ringd-plan-failover";
    static final Duration SESSION = Duration.ofSeconds(4);
    /** What a takeover may take past the session timeout: ZooKeeper's expiry tick, the latch, a plan tick. */
    static final Duration TAKEOVER_SLACK = Duration.ofSeconds(4);
    static final String DRIVES = "This instance drives the plans at " + PATH + "/plans";
    static final String NO_LONGER = "This instance no longer drives the plans at " + PATH + "/plans";
    static final Pattern NEGOTIATED = Pattern.compile("negotiated timeout = (\\d+)");
    static final Pattern FOUND = Pattern.compile("step \\d+ of \\d+ was made as version \\d+ before this instance "
            + "drove it; recorded");

    @TempDir
    Path dirs;

    /** One ringd process; {@code port} is 0 until it serves. */
    private final class Instance {
        final int number;
        final RingdProcess process;
        int port;

        Instance(int number, RingdProcess process) {
            this.number = number;
            this.process = process;
        }

        boolean drives() {
            String log = process.log();
            return process.isAlive() && log.lastIndexOf(DRIVES) > log.lastIndexOf(NO_LONGER);
        }

        @Override
        public String toString() {
            return "instance " + number + " (pid " + process.pid() + ", port " + port + ")";
        }
    }

    private final List<Instance> all = new ArrayList<>();
    private TestingServer zk;

    @Test
    void theDriverKilled_anotherGoesOnWithinTheSessionTimeout_andMakesEachStepOnce() throws Exception {
        int kills = Math.max(3, Integer.getInteger("ringd.crash.rounds", 20) / 2);
        String given = System.getProperty("ringd.seed");
        long seed = given == null || given.isBlank() ? 20_261_205L : Long.parseLong(given.trim());
        System.out.println("ZooKeeperPlanFailoverIT: seed " + seed + " (replay the choices with -Dringd.seed=" + seed
                + "), " + kills + " kills");
        Random rnd = new Random(seed);
        long began = System.nanoTime();
        for (String quiet : List.of("org.apache.zookeeper", "org.apache.curator")) { // the server in this JVM
            ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(quiet))
                    .setLevel(ch.qos.logback.classic.Level.ERROR);
        }
        // a tick of 500 ms lets the server grant sessions from 1 s to 10 s (its default, 3 s, grants 6 s at least)
        zk = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 500, -1), true);
        List<String> rows = new ArrayList<>();
        List<Long> takeovers = new ArrayList<>();
        int plans = 0;
        Deque<Integer> modes = new ArrayDeque<>();
        int killed = 0;
        try {
            for (int i = 0; i < 3; i++) {
                launch(); // together, as a fleet starts: one of them makes the ring
            }
            for (Instance i : List.copyOf(all)) {
                serving(i);
            }
            rows.add(String.format("three instances serving at %.1f s", (System.nanoTime() - began) / 1e9));
            int port = all.get(0).port;
            assertThat(PlanChecks.send(port, TOKEN, "POST", "/membership", PlanChecks.nodes(9), null).statusCode())
                    .isEqualTo(200);
            long latest = PlanChecks.version(port);
            for (int p = 0; killed < kills && p < kills + 3; p++) {
                List<Instance> live = live();
                Instance through = live.get(rnd.nextInt(live.size()));
                long v = latest;
                awaitTrue(through + " at v" + v, () -> PlanChecks.version(through.port) == v, Duration.ofSeconds(10));
                Membership start = PlanChecks.ring(through.port);
                PlanChecks.Made m = PlanChecks.start(through.port, TOKEN, start, PlanChecks.changes(p, start, rnd),
                        40 + rnd.nextInt(20), "PT0S");
                plans++;
                while (killed < kills) {
                    String at = "seed " + seed + ", kill " + (killed + 1) + ", " + m;
                    Instance driver = awaitDriver(at);
                    Instance watcher = survivorOf(driver);
                    PlanJson now = PlanChecks.checkProgress(driver.port, m, at); // its ring is never behind
                    if (!"running".equals(now.state()) || now.currentStep() >= m.n() - 15) {
                        break; // (nearly) done before this kill, which may wait 1.5 s: the rest go to the next plan
                    }
                    if (modes.isEmpty()) { // each kind of moment in turn, in a seeded order
                        List<Integer> order = new ArrayList<>(List.of(0, 1, 2));
                        Collections.shuffle(order, rnd);
                        modes.addAll(order);
                    }
                    String row = killAndMeasure(driver, watcher, m, modes.poll(), rnd, at, takeovers);
                    killed++;
                    rows.add(String.format("kill %2d at %5.1f s: %s", killed, (System.nanoTime() - began) / 1e9, row));
                    if (killed < kills) {
                        launch(); // in its place, serving by the next round or the end
                    }
                }
                live = live();
                Instance watcher = live.get(rnd.nextInt(live.size()));
                PlanJson end = PlanChecks.awaitEnded(watcher.port, m, Duration.ofSeconds(90));
                assertThat(end.state()).as("seed %d: %s ended: %s\n%s", seed, m, end, logs()).isEqualTo("done");
                awaitTrue(watcher + " at the plan's last version", () -> PlanChecks.version(watcher.port)
                        == m.base() + m.n(), Duration.ofSeconds(10));
                PlanChecks.checkDone(watcher.port, m, "seed " + seed + ", plan " + plans + " through " + watcher);
                latest = m.base() + m.n();
            }
            // every instance serves the same ring and plans, newcomers included
            for (Instance i : all) {
                if (i.process.isAlive()) {
                    serving(i);
                }
            }
            List<Instance> live = live();
            long version = latest;
            String plansBody = PlanChecks.get(live.get(0).port, "/plans").body();
            for (Instance i : live) {
                awaitTrue(i + " at v" + version, () -> PlanChecks.version(i.port) == version, Duration.ofSeconds(10));
                assertThat(PlanChecks.get(i.port, "/plans").body()).as("seed %d: the plans through %s", seed, i)
                        .isEqualTo(plansBody);
            }
        } finally {
            for (Instance i : all) {
                i.process.close();
            }
            zk.close();
        }
        int found = 0;
        for (Instance i : all) {
            Matcher f = FOUND.matcher(i.process.log());
            while (f.find()) {
                found++;
            }
        }
        rows.forEach(System.out::println);
        System.out.printf("ZooKeeperPlanFailoverIT: %d plans done, each step once, through %d kills of the driver; "
                + "taken over in %s ms (session timeout %d ms); %d steps committed and not yet recorded at a kill, "
                + "found in the history%n", plans, killed, takeovers, SESSION.toMillis(), found);
        assertThat(killed).as("seed %d: kills", seed).isEqualTo(kills);
    }

    /**
     * Kills {@code driver} at one of three kinds of moments (0 after a random time; 1 as a version appears; 2
     * when the next step is due, give or take 15 ms) and measures, on {@code watcher}'s change stream, how
     * long until the plan goes on: the first version committed after the kill (or, when the killed driver
     * had committed the last step, the plan recorded done).
     */
    private String killAndMeasure(Instance driver, Instance watcher, PlanChecks.Made m, int mode, Random rnd,
            String at, List<Long> takeovers) throws Exception {
        int after = rnd.nextInt(1500);
        int jitter = rnd.nextInt(31) - 15;
        String how;
        try (EventStream events = EventStream.open(URI.create("http://127.0.0.1:" + watcher.port + "/ring/events"))) {
            if (mode == 0) {
                Thread.sleep(after);
                how = "after " + after + " ms";
            } else {
                long t1 = awaitChange(events, Duration.ofSeconds(10)) != null ? System.nanoTime() : -1;
                if (mode == 1 || t1 < 0) {
                    how = t1 < 0 ? "no version within 10 s" : "as a version appeared";
                } else {
                    long t2 = awaitChange(events, Duration.ofSeconds(10)) != null ? System.nanoTime() : -1;
                    long period = t2 < 0 ? 100 : (t2 - t1) / 1_000_000;
                    Thread.sleep(Math.max(0, period + jitter - (System.nanoTime() - Math.max(t1, t2)) / 1_000_000));
                    how = String.format("next step due (period %d ms, %+d ms)", period, jitter);
                }
            }
            assertThat(driver.process.kill()).as("%s: exit status of SIGKILL", at).isEqualTo(RingdProcess.KILLED);
            Instant killedAt = Instant.now(); // reaped: anything it stamped is older
            Thread.sleep(500); // what it sent before it died is handled by then, long before its session ends
            long v = PlanChecks.version(watcher.port);
            String killedWhere = String.format("%-42s instance %d killed at v%d (plan from v%d, %d steps)", how,
                    driver.number, v, m.base(), m.n());
            if (!"running".equals(PlanChecks.plan(watcher.port, m.id()).state())) {
                return killedWhere + ", which had ended the plan";
            }
            // the first version committed after the kill, by whoever drives next, or the plan recorded done
            long deadline = System.nanoTime() + SESSION.plus(TAKEOVER_SLACK).plusSeconds(10).toNanos();
            Instant wentOn = null;
            String what = "the plan went on";
            while (wentOn == null && System.nanoTime() < deadline) {
                ChangeEventJson c = awaitChange(events, Duration.ofMillis(100));
                if (c != null) {
                    Instant committed = WireTime.parseOrNull(c.committedAt());
                    if (committed != null && committed.isAfter(killedAt)) {
                        wentOn = committed;
                    }
                } else if (!"running".equals(PlanChecks.plan(watcher.port, m.id()).state())) {
                    wentOn = Instant.now();
                    what = "its last step, made before the kill, was recorded"; // nothing else left to do
                }
            }
            assertThat(wentOn).as("%s: the plan went on after %s was killed at v%d\n%s", at, driver, v, logs())
                    .isNotNull();
            long ms = Duration.between(killedAt, wentOn).toMillis();
            takeovers.add(ms);
            assertThat(Duration.ofMillis(ms)).as("%s: the plan went on %d ms after %s was killed\n%s", at, ms,
                    driver, logs()).isLessThan(SESSION.plus(TAKEOVER_SLACK));
            return String.format("%s, %s %5d ms later (watched on instance %d)", killedWhere, what, ms,
                    watcher.number);
        }
    }

    /** The next change event within {@code within}, or null. */
    private static ChangeEventJson awaitChange(EventStream events, Duration within) throws Exception {
        long end = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < end) {
            EventStream.Event e = events.nextEvent(Duration.ofNanos(Math.max(1, end - System.nanoTime())));
            if (e != null && "change".equals(e.name())) {
                return PlanChecks.JSON.readValue(e.data(), ChangeEventJson.class);
            }
        }
        return null;
    }

    /** Starts one more instance (not yet serving). */
    private Instance launch() throws Exception {
        int number = all.size() + 1;
        Path dir = Files.createDirectories(dirs.resolve("instance-" + number));
        RingdProcess p = RingdProcess.start(dir, TOKEN, RingdProcess.QUICK_JVM, List.of(
                "--ringd.store=zookeeper",
                "--ringd.zookeeper.connect=" + zk.getConnectString(),
                "--ringd.zookeeper.path=" + PATH,
                "--ringd.zookeeper.session-timeout=" + SESSION.toMillis() + "ms",
                "--ringd.zookeeper.connect-timeout=3s",
                "--ringd.zookeeper.new-ring-wait=1s",
                "--ringd.warmup.enabled=false",
                "--logging.level.root=WARN",
                "--logging.level.org.springframework.boot.jetty=INFO",
                "--logging.level.io.ringd.plan=INFO",
                "--logging.level.io.ringd.store.ZooKeeperPlanStore=INFO",
                "--logging.level.org.apache.zookeeper.ClientCnxn=INFO",
                "--logging.level.org.apache.curator=ERROR"));
        Instance i = new Instance(number, p);
        all.add(i);
        return i;
    }

    /** Waits until {@code i} serves the ring, with the session timeout asked for. */
    private void serving(Instance i) throws Exception {
        if (i.port == 0) {
            i.port = i.process.awaitStarted(120);
        }
        awaitTrue(i + " serving the ring", () -> PlanChecks.get(i.port, "/ring").statusCode() == 200,
                Duration.ofSeconds(60));
        Matcher m = NEGOTIATED.matcher(i.process.log());
        assertThat(m.find()).as("%s logs its session:\n%s", i, i.process.log()).isTrue();
        assertThat(Long.parseLong(m.group(1))).as("%s: the session timeout ZooKeeper granted", i)
                .isEqualTo(SESSION.toMillis());
    }

    /** The instances alive and serving (started ones are waited for until two serve). */
    private List<Instance> live() throws Exception {
        List<Instance> out = new ArrayList<>();
        for (Instance i : all) {
            if (i.process.isAlive() && i.port != 0) {
                out.add(i);
            }
        }
        for (Instance i : all) {
            if (out.size() >= 2) {
                break;
            }
            if (i.process.isAlive() && i.port == 0) {
                serving(i);
                out.add(i);
            }
        }
        return out;
    }

    /** The one live instance whose log says it drives the plans now. */
    private Instance awaitDriver(String at) throws Exception {
        long end = System.nanoTime() + SESSION.plus(TAKEOVER_SLACK).plusSeconds(10).toNanos();
        while (true) {
            List<Instance> drivers = new ArrayList<>();
            for (Instance i : live()) {
                if (i.drives()) {
                    drivers.add(i);
                }
            }
            if (drivers.size() == 1) {
                return drivers.get(0);
            }
            if (System.nanoTime() > end) {
                throw new AssertionError(at + ": not one driver but " + drivers + "\n" + logs());
            }
            Thread.sleep(50);
        }
    }

    /** A serving instance other than {@code driver}. */
    private Instance survivorOf(Instance driver) throws Exception {
        for (Instance i : live()) {
            if (i != driver) {
                return i;
            }
        }
        throw new AssertionError("no instance serves beside " + driver);
    }

    private String logs() {
        StringBuilder b = new StringBuilder();
        for (Instance i : all) {
            String log = i.process.log();
            b.append("---- ").append(i).append(i.process.isAlive() ? "" : ", ended").append(":\n")
                    .append(log.length() > 20_000 ? log.substring(log.length() - 20_000) : log);
        }
        return b.toString();
    }

    interface Check {
        boolean ok() throws Exception;
    }

    private static void awaitTrue(String what, Check check, Duration within) throws Exception {
        long end = System.nanoTime() + within.toNanos();
        while (true) {
            try {
                if (check.ok()) {
                    return;
                }
            } catch (java.io.IOException | AssertionError e) {
                // not yet
            }
            if (System.nanoTime() > end) {
                throw new AssertionError("not within " + within + ": " + what);
            }
            Thread.sleep(100);
        }
    }
}
