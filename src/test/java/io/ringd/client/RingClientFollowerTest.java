package io.ringd.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ringd.client.StubRingServer.Report;
import io.ringd.client.StubRingServer.Version;
import io.ringd.wire.WireJson;
import tools.jackson.databind.JsonNode;

/** The client reports to its server as a follower (docs/ring.md section 23), against a stand-in server. */
@Timeout(60)
class RingClientFollowerTest {

    private static final Duration WAIT = Duration.ofSeconds(15);
    /** Long enough that no heartbeat comes within a test: every report is a verified ring's. */
    private static final Duration NO_HEARTBEAT = Duration.ofSeconds(20);

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private <T extends AutoCloseable> T closing(T t) {
        toClose.add(t);
        return t;
    }

    private StubRingServer stub() throws Exception {
        return closing(StubRingServer.start());
    }

    private RingClientBuilder builder(StubRingServer stub) {
        return RingClient.builder(stub.baseUrl()).backoff(Duration.ofMillis(20), Duration.ofMillis(300))
                .requestTimeout(Duration.ofSeconds(2)).metrics(false);
    }

    private RingClient ready(RingClientBuilder b) throws InterruptedException {
        RingClient c = closing(b.build());
        assertThat(c.awaitReady(WAIT)).as("ready").isTrue();
        return c;
    }

    private static void eventually(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() < deadline).as("within %s: %s", WAIT, what).isTrue();
            Thread.sleep(5);
        }
    }

    /** The reports of the client whose id is {@code id}, in the order they came. */
    private static List<Report> reportsOf(StubRingServer stub, String id) {
        return stub.reports.stream().filter(r -> r.path().equals("/followers/" + id)
                || r.path().endsWith("/followers/" + id)).toList();
    }

    private static List<Long> versions(List<Report> reports) {
        return reports.stream().map(r -> json(r.body()).get("version").asLong()).toList();
    }

    private static JsonNode json(String body) {
        return WireJson.lenient().readTree(body);
    }

    private static String exactly(Version v) {
        return "{\"version\":" + v.version() + ",\"fingerprint\":\"" + v.ring().fingerprint() + "\"}";
    }

    // ------------------------------------------------------------ what is sent, and when

    @Test
    void eachVerifiedVersion_isReported_asItsVersionAndVerifiedFingerprint() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("n", 3);
        RingClient c = ready(builder(stub).followerId("web-7").reportInterval(NO_HEARTBEAT));
        eventually("the report of version 1", () -> reportsOf(stub, "web-7").size() == 1);
        Report first = reportsOf(stub, "web-7").get(0);
        assertThat(first.method()).isEqualTo("PUT");
        assertThat(first.rawPath()).isEqualTo("/followers/web-7");
        assertThat(first.contentType()).isEqualTo("application/json");
        assertThat(first.body()).as("no nodes without latencies").isEqualTo(exactly(stub.at(1)));

        eventually("streaming", () -> stub.openStreams() == 1);
        for (int i = 0; i < 3; i++) {
            Version v = stub.put("m" + i, 1, null);
            assertThat(c.awaitVersion(v.version(), WAIT)).isTrue();
            int n = i + 2;
            eventually("the report of version " + v.version(), () -> reportsOf(stub, "web-7").size() == n);
            assertThat(reportsOf(stub, "web-7").get(n - 1).body()).isEqualTo(exactly(v));
        }
        eventually("four taken", () -> c.reportsSent() == 4);
        assertThat(c.reportsFailed()).isZero();
    }

    @Test
    void aRingThatDoesNotVerify_isReportedAsBuilt_untilANewerOneVerifies() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("n", 3);
        Version v3 = stub.current();
        String lie = "0".repeat(64); // the server says one thing, the ring built here another
        stub.tamperRing(body -> body.replace(v3.ring().fingerprint(), lie));
        RingClient c = closing(builder(stub).followerId("odd").reportInterval(Duration.ofMillis(200)).build());
        eventually("a report of what it built", () -> !reportsOf(stub, "odd").isEmpty());
        assertThat(c.isReady()).as("it routes by no ring it could not verify").isFalse();
        assertThat(reportsOf(stub, "odd").get(0).body()).isEqualTo(exactly(v3)).doesNotContain(lie);
        stub.tamperRing(body -> body);
        assertThat(c.awaitReady(WAIT)).isTrue();
        stub.putMany("m", 1);
        Version v4 = stub.current();
        eventually("the report of version 4, verified", () -> reportsOf(stub, "odd").stream()
                .anyMatch(r -> r.body().equals(exactly(v4))));
    }

    @Test
    void theId_goesInThePathAsOneSegment_aSlashAsPercent2F() throws Exception {
        StubRingServer stub = stub();
        String id = "team/a:web@7.example_x-Y0";
        RingClient c = ready(builder(stub).followerId(id));
        assertThat(c.followerId()).isEqualTo(id);
        eventually("a report", () -> !stub.reports.isEmpty());
        Report r = stub.reports.get(0);
        assertThat(r.rawPath()).isEqualTo("/followers/team%2Fa:web@7.example_x-Y0");
        assertThat(r.path()).isEqualTo("/followers/" + id);
        assertThat(FollowerReporter.pathSegment(".")).isEqualTo("%2E");
        assertThat(FollowerReporter.pathSegment("..")).isEqualTo("%2E%2E");
        assertThat(FollowerReporter.pathSegment("a..b/.")).isEqualTo("a..b%2F.");
    }

    @Test
    void withoutChanges_aReportGoesOutEveryReportInterval() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("n", 2);
        RingClient c = ready(builder(stub).followerId("beat").reportInterval(Duration.ofMillis(200)));
        eventually("five reports", () -> reportsOf(stub, "beat").size() >= 5);
        List<Report> reports = reportsOf(stub, "beat");
        for (int i = 1; i < 5; i++) {
            long gap = TimeUnit.NANOSECONDS.toMillis(reports.get(i).atNanos() - reports.get(i - 1).atNanos());
            assertThat(gap).as("gap %d of %s ms", i, gap).isBetween(100L, 1_500L);
            assertThat(reports.get(i).body()).isEqualTo(exactly(stub.at(1)));
        }
        assertThat(c.version()).isEqualTo(1);
    }

    @Test
    void reportsOff_sendNone_butTheIdIsThere() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("n", 2);
        RingClient off = ready(builder(stub).followerId("silent").reports(false).reportInterval(Duration.ofMillis(50)));
        RingClient on = ready(builder(stub).followerId("talker").reportInterval(Duration.ofMillis(50)));
        eventually("streaming", () -> stub.openStreams() == 2);
        Version v = stub.put("m", 1, null);
        assertThat(off.awaitVersion(v.version(), WAIT)).isTrue();
        assertThat(on.awaitVersion(v.version(), WAIT)).isTrue();
        off.recordLatency("n0", Duration.ofMillis(3)); // nothing to record into
        eventually("the other client reported version 2, and beat twice since",
                () -> versions(reportsOf(stub, "talker")).stream().filter(x -> x == 2).count() >= 3);
        assertThat(stub.reports).extracting(Report::path).containsOnly("/followers/talker");
        assertThat(off.followerId()).isEqualTo("silent");
        assertThat(off.reportsSent() + off.reportsFailed()).isZero();
    }

    @Test
    void versionsVerifiedWhileAReportIsInFlight_onlyTheLatestIsSentNext() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("n", 2);
        stub.holdReports();
        RingClient c = ready(builder(stub).followerId("slow").reportInterval(NO_HEARTBEAT));
        eventually("the report of version 1, held", () -> reportsOf(stub, "slow").size() == 1);
        eventually("streaming", () -> stub.openStreams() == 1);
        for (int i = 0; i < 3; i++) {
            stub.put("m" + i, 1, null);
        }
        assertThat(c.awaitVersion(4, WAIT)).isTrue();
        assertThat(reportsOf(stub, "slow")).as("one in flight at most").hasSize(1);
        stub.releaseReports();
        eventually("the next report", () -> reportsOf(stub, "slow").size() == 2);
        assertThat(versions(reportsOf(stub, "slow"))).containsExactly(1L, 4L);
        assertThat(reportsOf(stub, "slow").get(1).body()).isEqualTo(exactly(stub.at(4)));
    }

    @Test
    void close_whileAReportWaitsForItsAnswer_endsTheReportingThreadAtOnce() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("n", 2);
        stub.holdReports();
        RingClient c = ready(builder(stub).followerId("leaving").requestTimeout(Duration.ofSeconds(40))
                .reportInterval(NO_HEARTBEAT));
        eventually("the report of version 1, held", () -> reportsOf(stub, "leaving").size() == 1);
        String reporting = "ringd-client-reports " + c.baseUrl();
        assertThat(Thread.getAllStackTraces().keySet()).as("the reporting thread, waiting for the answer")
                .anyMatch(t -> t.getName().startsWith(reporting));
        long closing = System.nanoTime();
        c.close();
        // the answer is held for 30 s and the request may take 40: only close() ends the wait within WAIT
        eventually("the reporting thread ended", () -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().startsWith(reporting)));
        assertThat(Duration.ofNanos(System.nanoTime() - closing)).isLessThan(Duration.ofSeconds(5));
        assertThat(c.reportsSent()).as("never answered").isZero();
        stub.releaseReports();
    }

    @Test
    void a503WithRetryAfter_holdsEveryReportBackUntilItPasses_thenTheLatestGoes() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("n", 2);
        stub.answerReports(503, "2", "{\"status\":503,\"detail\":\"too many followers\"}");
        RingClient c = ready(builder(stub).followerId("many").reportInterval(Duration.ofMillis(100)));
        eventually("the first report, refused", () -> c.reportsFailed() == 1);
        long refused = reportsOf(stub, "many").get(0).atNanos();
        stub.answerReports(204, null, null);
        eventually("streaming", () -> stub.openStreams() == 1);
        Version v = stub.put("m", 1, null); // verified within the 2 s: not reported before they pass
        assertThat(c.awaitVersion(v.version(), WAIT)).isTrue();
        eventually("a report after the Retry-After", () -> reportsOf(stub, "many").size() >= 2);
        Report next = reportsOf(stub, "many").get(1);
        assertThat(TimeUnit.NANOSECONDS.toMillis(next.atNanos() - refused)).as("ms after the 503")
                .isGreaterThanOrEqualTo(1_950);
        assertThat(next.body()).as("the latest version").isEqualTo(exactly(v));
        eventually("heartbeats again", () -> c.reportsSent() >= 3);
    }

    @Test
    void a503WithoutRetryAfter_orAFailure_isRetriedAtTheNextInterval() throws Exception {
        StubRingServer stub = stub();
        stub.answerReports(503, null, "");
        RingClient c = ready(builder(stub).followerId("retry").reportInterval(Duration.ofMillis(150)));
        eventually("three refused", () -> c.reportsFailed() >= 3);
        List<Report> reports = reportsOf(stub, "retry");
        long gap = TimeUnit.NANOSECONDS.toMillis(reports.get(2).atNanos() - reports.get(1).atNanos());
        assertThat(gap).as("retried at the interval, not at once").isGreaterThanOrEqualTo(75);
        stub.answerReports(204, null, null);
        eventually("taken", () -> c.reportsSent() >= 1);
    }

    @Test
    void a400_isLoggedOnceAsAWarningWithTheServersDetail_andReportsGoOn() throws Exception {
        Logger logger = Logger.getLogger(RingClient.class.getName());
        List<LogRecord> warnings = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
                    warnings.add(r);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(handler);
        try {
            StubRingServer stub = stub();
            stub.answerReports(400, null,
                    "{\"type\":\"urn:ringd:problem:bad-request\",\"status\":400,\"detail\":\"latencyMs must be finite\"}");
            RingClient c = ready(builder(stub).followerId("bad").reportInterval(Duration.ofMillis(100)));
            eventually("three refused", () -> c.reportsFailed() >= 3);
            List<String> messages = warnings.stream()
                    .map(r -> java.text.MessageFormat.format(r.getMessage(), r.getParameters()))
                    .filter(m -> m.contains("follower report")).toList();
            assertThat(messages).hasSize(1);
            assertThat(messages.get(0)).contains("400").contains("latencyMs must be finite")
                    .contains("/followers/bad");
        } finally {
            logger.removeHandler(handler);
        }
    }

    @Test
    void aNamedRing_reportsUnderItsPrefix() throws Exception {
        StubRingServer stub = stub();
        stub.serveRing("sessions");
        stub.putMany("s", 2);
        RingClient c = ready(builder(stub).ring("sessions").followerId("a/b"));
        eventually("a report", () -> !stub.reports.isEmpty());
        assertThat(stub.reports.get(0).rawPath()).isEqualTo("/rings/sessions/followers/a%2Fb");
        assertThat(stub.reports.get(0).body()).isEqualTo(exactly(stub.at(1)));
        assertThat(c.ringName()).isEqualTo("sessions");
    }

    @Test
    void close_stopsReporting() throws Exception {
        StubRingServer stub = stub();
        RingClient c = ready(builder(stub).followerId("closing").reportInterval(Duration.ofMillis(50)));
        eventually("two reports", () -> reportsOf(stub, "closing").size() >= 2);
        c.close();
        String thread = "ringd-client-reports " + stub.baseUrl();
        eventually("the reports thread ends", () -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.isAlive() && t.getName().startsWith(thread)));
        c.recordLatency("n0", Duration.ofMillis(1)); // harmless after close
    }

    // ------------------------------------------------------------ latencies

    @Test
    void latencies_areReportedAsEachMembersP99_andOnlyForMembersWithTwentySamples() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("n", 3); // n0, n1, n2
        RingClient c = ready(builder(stub).followerId("lat").reportInterval(Duration.ofMillis(100)));
        long seed = 20_260_101L;
        Random random = new Random(seed);
        long[] micros = new long[5_000];
        for (int i = 0; i < micros.length; i++) {
            long nanos = (long) (Math.exp(random.nextGaussian() + 14.5)); // about 2 ms, a long tail
            micros[i] = nanos / 1000;
            if (i % 2 == 0) {
                c.recordLatency("n0", nanos);
            } else {
                c.recordLatency("n0", Duration.ofNanos(nanos));
            }
        }
        for (int i = 0; i < 20; i++) {
            c.recordLatency("n2", Duration.ofMillis(7));
        }
        c.recordLatency("n2", -1); // ignored
        for (int i = 0; i < 19; i++) {
            c.recordLatency("n1", Duration.ofMillis(3)); // too few to be measured: not reported
        }
        c.recordLatency("not-a-member", Duration.ofMillis(1));
        long[] sorted = micros.clone();
        Arrays.sort(sorted);
        double oracle = sorted[(int) Math.ceil(0.99 * sorted.length) - 1] / 1000.0;

        // The report answered next may have been built before the samples were all in (and a body reads
        // one node after another, not at one instant); the one after it was built once they were.
        long answered = c.reportsSent() + c.reportsFailed();
        eventually("two reports answered", () -> c.reportsSent() + c.reportsFailed() >= answered + 2);
        List<Report> all = reportsOf(stub, "lat");
        JsonNode report = json(all.get(all.size() - 1).body());
        assertThat(report.propertyNames()).containsExactly("version", "fingerprint", "nodes");
        JsonNode nodes = report.get("nodes");
        assertThat(nodes.propertyNames()).as("members with 20 samples or more only").containsExactlyInAnyOrder("n0", "n2");
        assertThat(nodes.get("n0").propertyNames()).containsExactly("latencyMs");
        assertThat(nodes.get("n0").get("latencyMs").isNumber()).isTrue();
        assertThat(nodes.get("n0").get("latencyMs").asDouble()).as("seed %d", seed)
                .isCloseTo(oracle, within(oracle / 64));
        assertThat(nodes.get("n2").get("latencyMs").asDouble()).isEqualTo(7.0, within(7.0 / 64));

        eventually("streaming", () -> stub.openStreams() == 1);
        Version v = stub.remove("n0");
        assertThat(c.awaitVersion(v.version(), WAIT)).isTrue();
        eventually("a report of version 2", () -> versions(reportsOf(stub, "lat")).contains(2L));
        List<Report> ofV2 = reportsOf(stub, "lat").stream().filter(r -> json(r.body()).get("version").asLong() == 2)
                .toList();
        assertThat(json(ofV2.get(0).body()).get("nodes").propertyNames()).as("n0 left the ring: dropped")
                .containsExactly("n2");
    }

    @Test
    void aReport_namesAtMost1000Nodes_thoseWithTheMostSamples() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("n", 1_200);
        RingClient c = ready(builder(stub).followerId("wide").reportInterval(Duration.ofMillis(100)));
        for (int i = 0; i < 1_200; i++) {
            for (int k = 0; k < (i < 200 ? 20 : 21); k++) {
                c.recordLatency("n" + i, Duration.ofMillis(1 + i % 7));
            }
        }
        long answered = c.reportsSent() + c.reportsFailed();
        eventually("two reports answered", () -> c.reportsSent() + c.reportsFailed() >= answered + 2);
        List<Report> all = reportsOf(stub, "wide");
        JsonNode nodes = json(all.get(all.size() - 1).body()).get("nodes");
        List<String> expected = new ArrayList<>();
        for (int i = 200; i < 1_200; i++) {
            expected.add("n" + i);
        }
        assertThat(nodes.propertyNames()).as("the 1,000 with 21 samples").containsExactlyInAnyOrderElementsOf(expected);
        assertThat(nodes.get("n300").get("latencyMs").asDouble()).isEqualTo(1 + 300 % 7, within(0.1));
    }

    @Test
    void latencyToNamesNotInTheRing_isIgnored_andHoldsNoMemory() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("n", 2);
        RingClient c = ready(builder(stub).followerId("garbage").reportInterval(Duration.ofMillis(100)));
        for (int i = 0; i < 100_000; i++) {
            c.recordLatency("garbage-" + i, Duration.ofMillis(1));
        }
        assertThatThrownBy(() -> c.recordLatency(null, 1)).isInstanceOf(NullPointerException.class);
        assertThat(c.trackedNodes()).as("a window per member, no more").isEqualTo(2);
        int before = reportsOf(stub, "garbage").size();
        eventually("a heartbeat", () -> reportsOf(stub, "garbage").size() > before);
        List<Report> all = reportsOf(stub, "garbage");
        assertThat(all.get(all.size() - 1).body()).isEqualTo(exactly(stub.at(1)));
    }

    @Test
    void beforeAnyRing_latencyIsIgnored_andNothingIsReported() throws Exception {
        int port = StubRingServer.freePort(); // nobody there yet
        RingClient c = closing(RingClient.builder("http://127.0.0.1:" + port).metrics(false)
                .backoff(Duration.ofMillis(20), Duration.ofMillis(100)).followerId("early")
                .reportInterval(Duration.ofMillis(50)).build());
        c.recordLatency("n0", Duration.ofMillis(1));
        assertThat(c.trackedNodes()).isZero();
        StubRingServer stub = closing(StubRingServer.start(port));
        stub.putMany("n", 1);
        assertThat(c.awaitReady(WAIT)).isTrue();
        eventually("reports", () -> reportsOf(stub, "early").size() >= 2);
        assertThat(reportsOf(stub, "early")).allMatch(r -> r.body().equals(exactly(stub.at(1))));
    }

    // ------------------------------------------------------------ metrics

    @Test
    void metrics_countReportsTakenAndRefused() throws Exception {
        StubRingServer stub = stub();
        RingClient c = ready(builder(stub).followerId("counted").reportInterval(Duration.ofMillis(50)));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RingClientMetrics metrics = closing(new RingClientMetrics(c));
        metrics.bindTo(registry);
        eventually("two taken", () -> registry.get("ringd.client.reports").tag("ring", "default")
                .functionCounter().count() >= 2);
        stub.answerReports(500, null, "");
        eventually("two refused", () -> registry.get("ringd.client.report.failures").functionCounter().count() >= 2);
    }

    // ------------------------------------------------------------ the command line

    /** Runs the CLI with {@code args} after the stub's base URL and one key on its input: status, out, err. */
    private static String[] cli(StubRingServer stub, String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] all = new String[args.length + 1];
        all[0] = stub.baseUrl();
        System.arraycopy(args, 0, all, 1, args.length);
        int status = RingClientCli.run(all, new ByteArrayInputStream("k\n".getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {Integer.toString(status), out.toString(StandardCharsets.UTF_8),
                err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void theCli_saysAsWhomItReports_andTakesAnIdAndNoReports() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("n", 2);
        String[] named = cli(stub, "--follower-id", "cli/1", "--timeout", "15");
        assertThat(named[0]).as("stderr: %s", named[2]).isEqualTo("0");
        assertThat(named[2].lines().findFirst()).contains("follower cli/1");
        assertThat(named[1].lines().toList()).containsExactly(
                "version 1 " + stub.at(1).ring().fingerprint() + " ring default", stub.at(1).ring().route("k"));

        String[] off = cli(stub, "--no-reports", "--follower-id", "cli-off", "--timeout", "15");
        assertThat(off[0]).as("stderr: %s", off[2]).isEqualTo("0");
        assertThat(off[2].lines().findFirst()).contains("follower cli-off (reports off)");
        assertThat(reportsOf(stub, "cli-off")).as("closed now: it never reported").isEmpty();

        String[] made = cli(stub, "--timeout", "15");
        assertThat(made[2].lines().findFirst().orElseThrow())
                .matches("follower [A-Za-z0-9._:@/-]+:" + ProcessHandle.current().pid() + ":[0-9a-f]{6}");

        String[] bad = cli(stub, "--follower-id", "no spaces");
        assertThat(bad[0]).isEqualTo("2");
        assertThat(bad[2]).contains("a follower id is 1 to 200 characters").contains("usage:")
                .contains("--follower-id ID").contains("--no-reports");
    }

    // ------------------------------------------------------------ the builder and the id

    @Test
    void theBuilder_checksTheFollowerIdAndTheInterval() {
        RingClientBuilder b = RingClient.builder("http://127.0.0.1:1");
        for (String bad : List.of("", "a b", "tab\t", "é", "a#b", "a?b", "a%2F", "x".repeat(201), "😀")) {
            assertThatThrownBy(() -> b.followerId(bad)).as("\"%s\"", bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("1 to 200 characters");
        }
        assertThatThrownBy(() -> b.followerId(null)).isInstanceOf(NullPointerException.class);
        b.followerId("x".repeat(200));
        b.followerId("AZaz09._:@/-");
        b.followerId(".");
        for (Duration bad : List.of(Duration.ZERO, Duration.ofMillis(-1), Duration.ofSeconds(21),
                Duration.ofSeconds(20).plusNanos(1))) {
            assertThatThrownBy(() -> b.reportInterval(bad)).as("%s", bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("reportInterval");
        }
        assertThatThrownBy(() -> b.reportInterval(null)).isInstanceOf(NullPointerException.class);
        b.reportInterval(Duration.ofSeconds(20));
        b.reportInterval(Duration.ofMillis(1));
    }

    @Test
    void theDefaultId_isHostProcessAndARandomSuffix_inTheGrammar() throws Exception {
        StubRingServer stub = stub();
        RingClient a = closing(builder(stub).reports(false).build());
        RingClient b = closing(builder(stub).reports(false).build());
        String pid = Long.toString(ProcessHandle.current().pid());
        for (RingClient c : List.of(a, b)) {
            assertThat(c.followerId()).matches("[A-Za-z0-9._:@/-]{1,200}").contains(":" + pid + ":")
                    .matches(".+:" + pid + ":[0-9a-f]{6}");
        }
        assertThat(a.followerId()).as("two clients, two ids").isNotEqualTo(b.followerId());
        assertThat(FollowerReporter.sanitize("web 7.example(é)")).isEqualTo("web-7.example---");
        assertThat(FollowerReporter.sanitize("")).isEqualTo("host");
        assertThat(FollowerReporter.defaultId("web-7.example", 4711, new Random(1)))
                .matches("web-7\\.example:4711:[0-9a-f]{6}");
        String longHost = FollowerReporter.defaultId("h".repeat(300), 4711, new Random(1));
        assertThat(longHost).hasSize(200).startsWith("hhh").matches("h+:4711:[0-9a-f]{6}");
    }
}
