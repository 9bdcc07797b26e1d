package io.ringd;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import io.ringd.watch.EventStream;
import io.ringd.wire.PlanJson;

/**
 * Planned changes (docs/ring.md section 24) on the file store survive
 * SIGKILL: the real jar drives a plan of a few tens of small steps and is
 * killed, then started again on the same data folder, round after round, at
 * a random moment, right as a step's version appears, around the moment the
 * next step is due, or (started again) as soon as it goes on with the plan,
 * before it serves; plan after plan (a join, a drain, a reweight, ...).
 * After each start the plan records a prefix of its steps, at consecutive
 * versions; each plan ends done with every step committed exactly once
 * ({@link PlanChecks#checkDone}). Seeded: the seed is printed,
 * {@code -Dringd.seed=N} replays the plans and the kill moments' choices
 * (not the timing); {@code -Dringd.crash.rounds=N} sets the number of kills:
 * 4 in {@code ./mvnw verify}, 20 from {@code .ci/run} and without the property.
 */
@Timeout(900)
@EnabledIfSystemProperty(named = "ringd.jar", matches = ".+",
        disabledReason = "run by failsafe in verify, once package has built the jar (pom.xml sets the property)")
class PlanCrashIT {

    static final String TOKEN = "plan-crash-test-admin-token-0123456789";
    static final List<String> ARGS = List.of("--logging.level.root=WARN",
            "--logging.level.org.springframework.boot.jetty=INFO", "--logging.level.io.ringd.plan=INFO",
            "--ringd.warmup.enabled=false");
    /** The log line of a step the driver found in the ring's history, its record cut short by the kill. */
    static final Pattern FOUND = Pattern.compile("step (\\d+) of (\\d+) was made as version (\\d+) before this "
            + "instance drove it; recorded");

    @TempDir
    Path dataDir;

    private RingdProcess ringd;
    private int port;

    @Test
    void plansKilledAtRandomMoments_makeEachStepOnce_andReachTheirTarget() throws Exception {
        int rounds = Integer.getInteger("ringd.crash.rounds", 20);
        String given = System.getProperty("ringd.seed");
        long seed = given == null || given.isBlank() ? 20_261_204L : Long.parseLong(given.trim());
        System.out.println("PlanCrashIT: seed " + seed + " (replay the choices with -Dringd.seed=" + seed + "), "
                + rounds + " kills");
        Random rnd = new Random(seed);
        long began = System.nanoTime();
        int kills = 0;
        int midPlan = 0;
        int found = 0;
        List<String> rows = new ArrayList<>();
        List<PlanChecks.Made> plans = new ArrayList<>();
        Deque<Integer> modes = new ArrayDeque<>();
        start();
        try {
            assertThat(PlanChecks.send(port, TOKEN, "POST", "/membership", PlanChecks.nodes(9), null).statusCode())
                    .isEqualTo(200);
            // kills spread over the plans; at least three plans (a join, a drain, a reweight), a new one while
            // kills are left
            for (int p = 0; p < 3 || kills < rounds && p < rounds + 3; p++) {
                PlanChecks.Made m = PlanChecks.start(port, TOKEN, PlanChecks.ring(port),
                        PlanChecks.changes(p, PlanChecks.ring(port), rnd), 20 + rnd.nextInt(30), "PT0S");
                plans.add(m);
                int quota = kills + (p >= 2 ? rounds - kills : Math.max(1, rounds / 3));
                while (kills < Math.min(quota, rounds)) {
                    String at = "seed " + seed + ", kill " + (kills + 1) + ", " + m;
                    if (!"running".equals(PlanChecks.plan(port, m.id()).state())) {
                        break; // done before this kill: the rest go to the next plan
                    }
                    if (modes.isEmpty()) { // each kind of moment in turn, in a seeded order
                        List<Integer> order = new ArrayList<>(List.of(0, 1, 2, 3));
                        Collections.shuffle(order, rnd);
                        modes.addAll(order);
                    }
                    int mode = modes.poll();
                    if (mode == 3 && kills + 2 > rounds) {
                        mode = 0;
                    }
                    Kill how = kill(mode == 3 ? 1 : mode, rnd, at);
                    kills++;
                    midPlan += how.lastSeen() < m.base() + m.n() ? 1 : 0;
                    if (mode == 3) {
                        rows.add(String.format("kill %2d at %5.1f s: %-42s at v%d (plan from v%d, %d steps)", kills,
                                (System.nanoTime() - began) / 1e9, how.how(), how.lastSeen(), m.base(), m.n()));
                        String caught = killWhileStarting(at);
                        kills++;
                        midPlan += caught.endsWith("serve") ? 0 : 1;
                        rows.add(String.format("kill %2d at %5.1f s: %-42s", kills, (System.nanoTime() - began) / 1e9,
                                "while starting, " + caught));
                    }
                    long t0 = System.nanoTime();
                    double killedAt = (t0 - began) / 1e9;
                    start();
                    long startMs = (System.nanoTime() - t0) / 1_000_000;
                    PlanJson now = PlanChecks.checkProgress(port, m, at);
                    for (PlanChecks.Made earlier : plans.subList(0, plans.size() - 1)) {
                        assertThat(PlanChecks.plan(port, earlier.id()).state()).as("%s: %s", at, earlier)
                                .isEqualTo("done");
                    }
                    int seen = 0;
                    Matcher f = FOUND.matcher(ringd.log());
                    while (f.find()) {
                        seen++;
                    }
                    found += seen;
                    String restarted = String.format("restarted in %5d ms, step %d recorded%s", startMs,
                            now.currentStep(), seen > 0 ? ", a step found in the history" : "");
                    rows.add(mode == 3 ? String.format("%-62s%s", "", restarted)
                            : String.format("kill %2d at %5.1f s: %-42s at v%d (plan from v%d, %d steps); %s", kills,
                                    killedAt, how.how(), how.lastSeen(), m.base(), m.n(), restarted));
                }
                PlanJson end = PlanChecks.awaitEnded(port, m, Duration.ofSeconds(60));
                assertThat(end.state()).as("seed %d: %s ended: %s\n%s", seed, m, end, ringd.log()).isEqualTo("done");
                PlanChecks.checkDone(port, m, "seed " + seed + ", plan " + (p + 1));
            }
        } finally {
            ringd.close();
        }
        rows.forEach(System.out::println);
        System.out.printf("PlanCrashIT: %d plans done, each step once, through %d kills (%d of them before the "
                + "plan's last version showed; %d steps committed and not yet recorded at a kill, found in the "
                + "history)%n", plans.size(), kills, midPlan, found);
        assertThat(kills).as("seed %d: kills", seed).isEqualTo(rounds);
    }

    private void start() throws Exception {
        ringd = RingdProcess.start(dataDir, TOKEN, RingdProcess.QUICK_JVM, ARGS);
        port = ringd.awaitStarted(90);
    }

    /**
     * Starts the process and kills it (SIGKILL) as soon as its log shows it went on with the plan (a step
     * committed, or one found in the history recorded), or that it serves (a plan done meanwhile). What it
     * caught.
     */
    private String killWhileStarting(String at) throws Exception {
        ringd = RingdProcess.start(dataDir, TOKEN, RingdProcess.QUICK_JVM, ARGS);
        long end = System.nanoTime() + 90_000_000_000L;
        while (true) {
            String log = ringd.log();
            String caught = log.contains(" committed as version ") ? "as it committed a step"
                    : log.contains("before this instance drove it; recorded") ? "as it recorded a step"
                    : log.contains("Jetty started on port") ? "as it began to serve" : null;
            if (caught != null) {
                assertThat(ringd.kill()).as("%s: exit status of SIGKILL", at).isEqualTo(RingdProcess.KILLED);
                return caught;
            }
            assertThat(ringd.isAlive()).as("%s: ringd ended while starting:\n%s", at, log).isTrue();
            assertThat(System.nanoTime()).as("%s: ringd did not start within 90 s:\n%s", at, log).isLessThan(end);
            Thread.sleep(2);
        }
    }

    /** How a kill came: what it waited for, and the last version the change stream showed before it. */
    record Kill(String how, long lastSeen) {
    }

    /**
     * Kills the process (SIGKILL) at one of three kinds of moments: 0 after a random time; 1 as soon as a
     * version appears on its change stream; 2 when the next step is due (a step's period after the last
     * version appeared, give or take 15 ms).
     */
    private Kill kill(int mode, Random rnd, String at) throws Exception {
        int after = rnd.nextInt(1500);
        int jitter = rnd.nextInt(31) - 15;
        String how;
        try (EventStream events = EventStream.open(URI.create("http://127.0.0.1:" + port + "/ring/events"))) {
            List<EventStream.Event> seen = new ArrayList<>();
            if (mode == 0) {
                Thread.sleep(after);
                how = "after " + after + " ms";
            } else {
                long t1 = awaitChange(events, seen);
                if (mode == 1 || t1 < 0) {
                    how = t1 < 0 ? "no version within 10 s" : "as a version appeared";
                } else {
                    long t2 = awaitChange(events, seen);
                    long period = t2 < 0 ? 100 : (t2 - t1) / 1_000_000;
                    Thread.sleep(Math.max(0, period + jitter - (System.nanoTime() - Math.max(t1, t2)) / 1_000_000));
                    how = String.format("next step due (period %d ms, %+d ms)", period, jitter);
                }
            }
            assertThat(ringd.kill()).as("%s: exit status of SIGKILL", at).isEqualTo(RingdProcess.KILLED);
            seen.addAll(events.takeReceivedEvents());
            long last = -1;
            for (EventStream.Event e : seen) {
                last = e.id() == null ? last : Long.parseLong(e.id());
            }
            return new Kill(how, last);
        }
    }

    /**
     * Waits for the next change event, adding what it takes to {@code seen}; when it came
     * ({@link System#nanoTime()}), or -1 if none came within 10 s.
     */
    private static long awaitChange(EventStream events, List<EventStream.Event> seen) throws InterruptedException {
        long end = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < end) {
            EventStream.Event e = events.nextEvent(Duration.ofNanos(Math.max(1, end - System.nanoTime())));
            if (e != null) {
                seen.add(e);
                if ("change".equals(e.name())) {
                    return System.nanoTime();
                }
            }
        }
        return -1;
    }
}
