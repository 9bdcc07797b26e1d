package io.ringd.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.yaml.snakeyaml.Yaml;

import io.ringd.deploy.Commands.Result;
import tools.jackson.databind.JsonNode;

/**
 * Checks the deployment files with Java alone: the Grafana dashboard and its provisioning, the
 * structure of the Prometheus configuration and alert rules and of the compose file, the
 * Dockerfile (statically: no Docker engine is needed) and the container's health-check program.
 *
 * <p>The checks that run promtool and docker-compose are in {@link DeploymentToolsTest}, run by
 * {@code ./mvnw -Ptools verify}.
 */
class DeploymentFilesTest {

    static final List<String> REQUIRED_PANELS = List.of(
            "Ownership share per node",
            "Routed share vs owned share per node",
            "Routing rate per node",
            "Ring version per instance",
            "Ring fingerprint per instance",
            "Stale request rate",
            "Client version lag",
            "Lookup latency p50 and p99",
            "Open change streams",
            "Change delivery latency p50 and p99",
            "Version lag per instance",
            "Store writable per instance",
            "Store apply latency p50 and p99",
            "Followers by state",
            "Diverged followers",
            "Converged share",
            "Follower apply time p50 and p99",
            "Plan step of steps",
            "Plan state",
            "Plan gate wait");

    static final List<String> REQUIRED_ALERTS = List.of(
            "RingdDown",
            "RingdNotReady",
            "RingdRingEmpty",
            "RingdFingerprintMismatch",
            "RingdRoutedShareSkew",
            "RingdStaleClients",
            "RingdClientVersionLagHigh",
            "RingdStoreNotWritable",
            "RingdInstanceLagging",
            "RingdFollowersDiverged",
            "RingdFollowersNotConverged",
            "RingdPlanPausedOnGate",
            "RingdPlanFailed");

    /** The metrics the service promises (docs/deployment.md lists them). */
    static final Set<String> CONTRACT_METRICS = Set.of(
            "ringd_ring_version", "ringd_nodes", "ringd_points",
            "ringd_routes_total",
            "ringd_ownership_share", "ringd_node_points", "ringd_node_weight",
            "ringd_membership_changes_total",
            "ringd_stale_requests_total",
            "ringd_client_version_lag_count", "ringd_client_version_lag_sum",
            "ringd_client_version_lag_max", "ringd_client_version_lag_bucket",
            "ringd_ring_info",
            "ringd_watch_streams", "ringd_watch_events_total",
            "ringd_watch_delivery_seconds_count", "ringd_watch_delivery_seconds_sum",
            "ringd_watch_delivery_seconds_max", "ringd_watch_delivery_seconds_bucket",
            "ringd_store_writable", "ringd_ring_loaded",
            "ringd_store_apply_seconds_count", "ringd_store_apply_seconds_sum",
            "ringd_store_apply_seconds_max", "ringd_store_apply_seconds_bucket",
            "ringd_followers", "ringd_followers_converged_share",
            "ringd_follower_apply_seconds_count", "ringd_follower_apply_seconds_sum",
            "ringd_follower_apply_seconds_max", "ringd_follower_apply_seconds_bucket",
            "ringd_plan_step", "ringd_plan_steps", "ringd_plan_state", "ringd_plan_gate_wait_seconds",
            "ringd_plan_paused_on_gate");

    static final Set<String> PANEL_TYPES = Set.of("timeseries", "stat", "table", "piechart", "state-timeline", "row");

    final Path root = DeployAssets.projectRoot();

    // ---- Grafana -----------------------------------------------------------------------------

    @Test
    void dashboardHasEveryRequiredPanelEachWithAQuery() {
        Map<String, JsonNode> panels = panelsByTitle();
        assertThat(panels.keySet()).containsAll(REQUIRED_PANELS);
        for (JsonNode panel : panels.values()) {
            if (panel.path("type").stringValue("").equals("row")) {
                continue;
            }
            List<String> exprs = new ArrayList<>();
            for (JsonNode target : panel.path("targets")) {
                if (!target.path("expr").stringValue("").isBlank()) {
                    exprs.add(target.path("expr").stringValue());
                }
            }
            assertThat(exprs).as("queries of panel \"%s\"", panel.path("title").stringValue()).isNotEmpty();
        }
    }

    @Test
    void dashboardIsWellFormedAndUsesTheProvisionedDatasource() {
        JsonNode dashboard = DeployAssets.dashboard();
        assertThat(dashboard.path("uid").stringValue("")).isNotBlank();
        assertThat(dashboard.path("title").stringValue("")).isNotBlank();
        assertThat(dashboard.path("schemaVersion").asInt()).isBetween(36, 41);
        assertThat(dashboard.has("id") && !dashboard.path("id").isNull())
                .as("a provisioned dashboard carries no database id").isFalse();

        String uid = provisionedDatasourceUid();
        Set<Integer> ids = new HashSet<>();
        for (JsonNode panel : allPanels()) {
            String title = panel.path("title").stringValue("");
            assertThat(ids.add(panel.path("id").asInt())).as("unique id of panel \"%s\"", title).isTrue();
            assertThat(panel.path("type").stringValue("")).as("type of panel \"%s\"", title).isIn(PANEL_TYPES);
            JsonNode grid = panel.path("gridPos");
            for (String field : List.of("x", "y", "w", "h")) {
                assertThat(grid.path(field).isInt()).as("gridPos.%s of panel \"%s\"", field, title).isTrue();
            }
            assertThat(grid.path("x").asInt() + grid.path("w").asInt()).as("width of \"%s\"", title).isLessThanOrEqualTo(24);
            if (panel.path("type").stringValue("").equals("row")) {
                continue;
            }
            assertThat(panel.path("datasource").path("uid").stringValue("")).as("datasource of \"%s\"", title).isEqualTo(uid);
            for (JsonNode target : panel.path("targets")) {
                assertThat(target.path("datasource").path("uid").stringValue(uid))
                        .as("datasource of a target of \"%s\"", title).isEqualTo(uid);
                assertThat(target.path("refId").stringValue("")).as("refId of a target of \"%s\"", title).isNotBlank();
            }
        }
    }

    @Test
    void dashboardMarksMembershipChangesAsAnnotations() {
        List<JsonNode> prometheusAnnotations = new ArrayList<>();
        for (JsonNode annotation : DeployAssets.dashboard().path("annotations").path("list")) {
            if (annotation.has("expr")) {
                prometheusAnnotations.add(annotation);
            }
        }
        assertThat(prometheusAnnotations).isNotEmpty();
        assertThat(prometheusAnnotations)
                .anySatisfy(a -> assertThat(a.path("expr").stringValue())
                        .containsAnyOf("increase(ringd_membership_changes_total", "changes(ringd_ring_version"));
        for (JsonNode annotation : prometheusAnnotations) {
            assertThat(annotation.path("enable").asBoolean()).isTrue();
            assertThat(annotation.path("datasource").path("uid").stringValue("")).isEqualTo(provisionedDatasourceUid());
        }
    }

    /**
     * One ringd serves many rings and tags every ring metric with its ring (docs/ring.md section 22):
     * the dashboard shows one ring at a time, the ring variable, and every read of a ring's metric,
     * in panels and annotations, is filtered by it; the variable imports as it is (a value that always
     * exists, default, selected).
     */
    @Test
    void dashboardShowsTheRingOfItsRingVariable() {
        JsonNode ring = null;
        for (JsonNode variable : DeployAssets.dashboard().path("templating").path("list")) {
            if (variable.path("name").stringValue("").equals("ring")) {
                ring = variable;
            }
        }
        assertThat(ring).as("a ring variable").isNotNull();
        assertThat(ring.path("type").stringValue("")).isEqualTo("query");
        assertThat(ring.path("definition").stringValue("")).isEqualTo("label_values(ringd_ring_version{job=\"ringd\"}, ring)");
        assertThat(ring.path("query").path("query").stringValue("")).isEqualTo(ring.path("definition").stringValue(""));
        assertThat(ring.path("datasource").path("uid").stringValue("")).isEqualTo(provisionedDatasourceUid());
        assertThat(ring.path("multi").asBoolean()).as("one ring at a time: ring=\"$ring\"").isFalse();
        assertThat(ring.path("includeAll").asBoolean()).isFalse();
        assertThat(ring.path("current").path("value").stringValue("")).isEqualTo("default");
        assertThat(ring.path("refresh").asInt()).as("the rings listed again on a time range change").isEqualTo(2);

        List<String> queries = DeployAssets.dashboardQueries();
        assertThat(queries).anySatisfy(q -> assertThat(q).contains("ring=\"$ring\""));
        for (String query : queries) {
            assertThat(DeployAssets.unfilteredRingReads(query, "ring=\"$ring\""))
                    .as("reads of a ring's metric without ring=\"$ring\" in %s", query).isEmpty();
        }
        assertThat(DeployAssets.unfilteredRingReads("ringd_nodes{job=\"ringd\"} + ringd_points"
                + " + ringd_watch_streams + ringd_points{ ring=\"$ring\" }", "ring=\"$ring\""))
                .containsExactly("ringd_nodes{job=\"ringd\"}", "ringd_points");
    }

    /**
     * Every alert about a ring is per ring (docs/ring.md section 22): each grouping and matching of
     * its expression keeps the label ring (no scalar() or on () across rings), and its summary and
     * description name the ring. rules_test.yml shows each firing for one ring and not another.
     */
    @Test
    void everyRingAlertIsPerRingAndNamesIt() {
        Pattern clause = Pattern.compile("\\b(by|on|without)\\s*\\(([^)]*)\\)");
        List<String> ringAlerts = new ArrayList<>();
        for (Map<String, Object> rule : DeployAssets.rules()) {
            String name = String.valueOf(rule.get("alert"));
            String expr = String.valueOf(rule.get("expr"));
            boolean readsARing = Pattern.compile("(?<![A-Za-z0-9_:])ringd_[A-Za-z0-9_:]+").matcher(expr)
                    .results().anyMatch(m -> !DeployAssets.instanceWide(m.group()));
            if (!rule.containsKey("alert") || !readsARing) {
                continue;
            }
            ringAlerts.add(name);
            assertThat(expr).as("%s: scalar() mixes the rings", name).doesNotContain("scalar(");
            Matcher m = clause.matcher(expr);
            while (m.find()) {
                List<String> labels = List.of(m.group(2).replace(" ", "").split(","));
                if (m.group(1).equals("without")) {
                    assertThat(labels).as("%s: %s", name, m.group()).doesNotContain("ring");
                } else {
                    assertThat(labels).as("%s: %s keeps the ring", name, m.group()).contains("ring");
                }
            }
            assertThat(expr).as("%s: aggregated across the rings (written sum by (ring, ...) (...))", name)
                    .doesNotContainPattern("\\b(sum|max|min|count|avg)\\s*\\(");
            Map<String, Object> annotations = map(rule, "annotations");
            for (String a : List.of("summary", "description")) {
                assertThat(String.valueOf(annotations.get(a))).as("%s of %s", a, name).contains("{{ $labels.ring }}");
            }
        }
        assertThat(ringAlerts).contains("RingdFingerprintMismatch", "RingdRoutedShareSkew", "RingdStoreNotWritable",
                "RingdInstanceLagging", "RingdStaleClients", "RingdClientVersionLagHigh", "RingdRingEmpty",
                "RingdFollowersDiverged", "RingdFollowersNotConverged", "RingdPlanPausedOnGate", "RingdPlanFailed");
    }

    /** The panels that compare the instances sharing one ring show one series per instance. */
    @Test
    void dashboardComparesTheInstancesOfASharedRing() {
        Map<String, JsonNode> panels = panelsByTitle();

        JsonNode version = panels.get("Ring version per instance");
        assertThat(exprs(version)).singleElement().asString().startsWith("ringd_ring_version{");
        assertThat(version.path("options").path("reduceOptions").path("values").asBoolean()).as("one value per series").isFalse();
        assertThat(version.path("options").path("textMode").stringValue("")).isIn("value_and_name", "auto");
        assertThat(legends(version)).containsExactly("{{instance}}");

        JsonNode lag = panels.get("Version lag per instance");
        assertThat(exprs(lag)).singleElement().asString()
                .contains("max(ringd_ring_version{job=\"ringd\", ring=\"$ring\"})").contains("- ringd_ring_version{")
                .contains("ringd_ring_loaded");
        assertThat(legends(lag)).containsExactly("{{instance}}");

        JsonNode writable = panels.get("Store writable per instance");
        assertThat(exprs(writable)).singleElement().asString().contains("ringd_store_writable").contains("ringd_ring_loaded");
        assertThat(legends(writable)).containsExactly("{{instance}}");
        Set<String> states = new HashSet<>();
        for (JsonNode mapping : writable.path("fieldConfig").path("defaults").path("mappings")) {
            mapping.path("options").properties().forEach(e -> states.add(e.getKey()));
        }
        assertThat(states).as("a name for each state: not loaded, read-only, writable").containsExactlyInAnyOrder("0", "1", "2");

        JsonNode apply = panels.get("Store apply latency p50 and p99");
        assertThat(exprs(apply)).containsExactly(
                "histogram_quantile(0.5, sum by (le, instance) (rate(ringd_store_apply_seconds_bucket{job=\"ringd\", ring=\"$ring\", instance=~\"$instance\"}[$__rate_interval])))",
                "histogram_quantile(0.99, sum by (le, instance) (rate(ringd_store_apply_seconds_bucket{job=\"ringd\", ring=\"$ring\", instance=~\"$instance\"}[$__rate_interval])))");
        assertThat(apply.path("fieldConfig").path("defaults").path("unit").stringValue("")).isEqualTo("s");
    }

    /**
     * The row "Followers": the ring's followers by state (stacked), the diverged ones (red from 1),
     * the converged share (a line at 90%, the alert's threshold) and the apply time's quantiles, each
     * read with the max over the instances (they export one shared view), the quantiles from the
     * buckets summed over the instances (each times the reports it took).
     */
    @Test
    void dashboardShowsTheFollowersOfTheRingInARowOfTheirOwn() {
        List<JsonNode> top = new ArrayList<>();
        DeployAssets.dashboard().path("panels").forEach(top::add);
        JsonNode row = top.stream().filter(p -> p.path("type").stringValue("").equals("row")
                && p.path("title").stringValue("").equals("Followers")).findFirst().orElseThrow(() -> new AssertionError("row Followers"));
        assertThat(row.path("collapsed").asBoolean()).isFalse();
        int rowY = row.path("gridPos").path("y").asInt();
        Map<String, JsonNode> panels = panelsByTitle();
        List<String> titles = List.of("Followers by state", "Diverged followers", "Converged share", "Follower apply time p50 and p99");
        for (String title : titles) {
            assertThat(panels.get(title).path("gridPos").path("y").asInt()).as("%s under the row", title).isEqualTo(rowY + 1);
        }
        assertRowHoldsJust(top, row, titles);

        JsonNode byState = panels.get("Followers by state");
        assertThat(exprs(byState)).containsExactly("max by (state) (ringd_followers{job=\"ringd\", ring=\"$ring\", instance=~\"$instance\"})");
        assertThat(legends(byState)).containsExactly("{{state}}");
        assertThat(byState.path("fieldConfig").path("defaults").path("custom").path("stacking").path("mode").stringValue(""))
                .isEqualTo("normal");
        Set<String> coloured = new HashSet<>();
        byState.path("fieldConfig").path("overrides").forEach(o -> coloured.add(o.path("matcher").path("options").stringValue("")));
        assertThat(coloured).containsExactlyInAnyOrder("current", "behind", "diverged", "silent");

        JsonNode diverged = panels.get("Diverged followers");
        assertThat(diverged.path("type").stringValue("")).isEqualTo("stat");
        assertThat(exprs(diverged)).singleElement().asString().startsWith("max(ringd_followers{").contains("state=\"diverged\"");
        JsonNode steps = diverged.path("fieldConfig").path("defaults").path("thresholds").path("steps");
        assertThat(steps.get(0).path("color").stringValue("")).isEqualTo("green");
        assertThat(steps.get(1).path("color").stringValue("")).isEqualTo("red");
        assertThat(steps.get(1).path("value").asDouble()).isEqualTo(1.0);
        assertThat(diverged.path("fieldConfig").path("defaults").path("color").path("mode").stringValue("")).isEqualTo("thresholds");

        JsonNode share = panels.get("Converged share");
        assertThat(exprs(share)).singleElement().asString().startsWith("max(ringd_followers_converged_share{");
        assertThat(share.path("fieldConfig").path("defaults").path("unit").stringValue("")).isEqualTo("percentunit");
        assertThat(share.path("fieldConfig").path("defaults").path("thresholds").path("steps").get(1).path("value").asDouble())
                .as("the line of alert RingdFollowersNotConverged").isEqualTo(0.9);

        JsonNode apply = panels.get("Follower apply time p50 and p99");
        assertThat(exprs(apply)).containsExactly(
                "histogram_quantile(0.5, sum by (le) (rate(ringd_follower_apply_seconds_bucket{job=\"ringd\", ring=\"$ring\", instance=~\"$instance\"}[$__rate_interval])))",
                "histogram_quantile(0.99, sum by (le) (rate(ringd_follower_apply_seconds_bucket{job=\"ringd\", ring=\"$ring\", instance=~\"$instance\"}[$__rate_interval])))");
        assertThat(apply.path("fieldConfig").path("defaults").path("unit").stringValue("")).isEqualTo("s");
    }

    /**
     * The row "Plans", last: the ring's newest planned change (docs/ring.md section 24), its step
     * climbing to its steps, its state over time with the pause on the gate beside it, and how long it
     * has waited for its gate, each the max over the instances (they export one plan; only the one
     * that drives it times the gate).
     */
    @Test
    void dashboardShowsThePlansOfTheRingInARowOfTheirOwn() {
        List<JsonNode> top = new ArrayList<>();
        DeployAssets.dashboard().path("panels").forEach(top::add);
        JsonNode row = top.stream().filter(p -> p.path("type").stringValue("").equals("row")
                && p.path("title").stringValue("").equals("Plans")).findFirst().orElseThrow(() -> new AssertionError("row Plans"));
        assertThat(row.path("collapsed").asBoolean()).isFalse();
        int rowY = row.path("gridPos").path("y").asInt();
        Map<String, JsonNode> panels = panelsByTitle();
        List<String> titles = List.of("Plan step of steps", "Plan state", "Plan gate wait");
        for (String title : titles) {
            assertThat(panels.get(title).path("gridPos").path("y").asInt()).as("%s under the row", title).isEqualTo(rowY + 1);
        }
        assertRowHoldsJust(top, row, titles);
        String selector = "{job=\"ringd\", ring=\"$ring\", instance=~\"$instance\"}";

        JsonNode steps = panels.get("Plan step of steps");
        assertThat(exprs(steps)).containsExactly("max(ringd_plan_step" + selector + ")", "max(ringd_plan_steps" + selector + ")");
        assertThat(legends(steps)).containsExactly("step", "steps");
        assertThat(steps.path("fieldConfig").path("defaults").path("decimals").asInt(-1)).isZero();

        JsonNode state = panels.get("Plan state");
        assertThat(state.path("type").stringValue("")).isEqualTo("state-timeline");
        assertThat(exprs(state)).containsExactly("max by (state) (ringd_plan_state" + selector + ")",
                "max(ringd_plan_paused_on_gate" + selector + ")");
        assertThat(legends(state)).containsExactly("{{state}}", "paused on gate");
        Map<String, String> shownAs = new LinkedHashMap<>();
        for (JsonNode o : state.path("fieldConfig").path("overrides")) {
            for (JsonNode property : o.path("properties")) {
                if (property.path("id").stringValue("").equals("mappings")) {
                    JsonNode options = property.path("value").get(0).path("options");
                    assertThat(options.path("0").path("color").stringValue("")).as("0 shows nothing").isEqualTo("transparent");
                    shownAs.put(o.path("matcher").path("options").stringValue(""), options.path("1").path("text").stringValue(""));
                }
            }
        }
        assertThat(shownAs).as("a row for each state, named").containsEntry("running", "running")
                .containsEntry("paused", "paused").containsEntry("done", "done").containsEntry("aborted", "aborted")
                .containsEntry("failed", "failed").containsKey("paused on gate").hasSize(6);

        JsonNode wait = panels.get("Plan gate wait");
        assertThat(exprs(wait)).containsExactly("max(ringd_plan_gate_wait_seconds" + selector + ")");
        assertThat(wait.path("fieldConfig").path("defaults").path("unit").stringValue("")).isEqualTo("s");
    }

    /** {@code row} holds exactly the panels {@code titles}: they lie between it and the next row (or the end). */
    private static void assertRowHoldsJust(List<JsonNode> top, JsonNode row, List<String> titles) {
        int rowY = row.path("gridPos").path("y").asInt();
        int next = top.stream().filter(p -> p.path("type").stringValue("").equals("row"))
                .mapToInt(p -> p.path("gridPos").path("y").asInt()).filter(y -> y > rowY).min().orElse(Integer.MAX_VALUE);
        for (JsonNode p : top) {
            int y = p.path("gridPos").path("y").asInt();
            String title = p.path("title").stringValue("");
            assertThat(y > rowY && y < next).as("\"%s\" under the row \"%s\"", title, row.path("title").stringValue(""))
                    .isEqualTo(titles.contains(title));
        }
    }

    /** Both stacks provision Grafana the same way, from the same files. */
    @ParameterizedTest
    @ValueSource(strings = {ComposeFile.SINGLE, ComposeFile.CLUSTER})
    void grafanaProvisioningFindsTheDashboardAndPrometheus(String file) {
        ComposeFile compose = ComposeFile.read(file);
        Map<String, Object> grafana = compose.service("grafana");
        Map<String, String> mounts = ComposeFile.bindMounts(grafana);

        // The dashboard provider reads the folder that compose mounts the dashboards into.
        Map<String, Object> providers = yaml("deploy/grafana/provisioning/dashboards/ringd.yml");
        Map<String, Object> provider = first(providers, "providers");
        assertThat(provider.get("type")).isEqualTo("file");
        String dashboardsPath = String.valueOf(map(provider, "options").get("path"));
        assertThat(mounts).containsEntry("./deploy/grafana/dashboards", dashboardsPath);
        assertThat(mounts).containsEntry("./deploy/grafana/provisioning/dashboards", "/etc/grafana/provisioning/dashboards");
        assertThat(mounts).containsEntry("./deploy/grafana/provisioning/datasources", "/etc/grafana/provisioning/datasources");
        assertThat(root.resolve("deploy/grafana/dashboards/ringd.json")).isRegularFile();

        // The home page is the dashboard, visible without logging in.
        Map<String, String> env = ComposeFile.environment(grafana);
        assertThat(env).containsEntry("GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH", dashboardsPath + "/ringd.json");
        assertThat(env).containsEntry("GF_AUTH_ANONYMOUS_ENABLED", "true");
        assertThat(env).containsEntry("GF_AUTH_ANONYMOUS_ORG_ROLE", "Viewer");

        // The datasource is the compose stack's Prometheus.
        Map<String, Object> datasource = first(yaml("deploy/grafana/provisioning/datasources/prometheus.yml"), "datasources");
        assertThat(datasource.get("type")).isEqualTo("prometheus");
        assertThat(datasource.get("url")).isEqualTo("http://prometheus:9090");
        assertThat(compose.services()).containsKey("prometheus");
    }

    // ---- Prometheus --------------------------------------------------------------------------

    @Test
    void prometheusScrapesRingdAndLoadsTheRules() {
        Map<String, Object> job = ringdScrapeJob("deploy/prometheus/prometheus.yml");
        Map<String, Object> staticConfig = first(job, "static_configs");
        assertThat(list(staticConfig, "targets")).containsExactly("ringd:8080");

        // ringd:8080 is the compose service, and compose mounts this folder as Prometheus's config.
        ComposeFile compose = ComposeFile.read(ComposeFile.SINGLE);
        assertThat(compose.services()).containsKey("ringd");
        assertThat(ComposeFile.bindMounts(compose.service("prometheus"))).containsEntry("./deploy/prometheus", "/etc/prometheus");
        assertThat(String.valueOf(compose.service("prometheus").get("command"))).contains("--config.file=/etc/prometheus/prometheus.yml");
    }

    @Test
    void rulesHaveEveryRequiredAlertWithSummaryAndDescription() {
        Map<String, Map<String, Object>> alerts = new LinkedHashMap<>();
        for (Map<String, Object> rule : DeployAssets.rules()) {
            if (rule.containsKey("alert")) {
                alerts.put(String.valueOf(rule.get("alert")), rule);
            }
        }
        assertThat(alerts.keySet()).containsAll(REQUIRED_ALERTS);
        for (Map.Entry<String, Map<String, Object>> alert : alerts.entrySet()) {
            Map<String, Object> annotations = map(alert.getValue(), "annotations");
            assertThat(String.valueOf(annotations.get("summary"))).as("summary of %s", alert.getKey()).isNotBlank();
            assertThat(String.valueOf(annotations.get("description"))).as("description of %s", alert.getKey()).isNotBlank();
            assertThat(map(alert.getValue(), "labels")).as("labels of %s", alert.getKey()).containsKey("severity");
            assertThat(alert.getValue()).as("'for' of %s", alert.getKey()).containsKey("for");
        }
        Map<String, String> exprs = DeployAssets.ruleExpressions();
        assertThat(exprs.get("RingdFingerprintMismatch")).contains("count by (ring, fingerprint)").contains("ringd_ring_info");
        assertThat(exprs.get("RingdStaleClients")).contains("rate(ringd_stale_requests_total");
        assertThat(exprs.get("RingdRoutedShareSkew")).contains("ringd_routes_total").contains("ringd_ownership_share");
        assertThat(exprs.get("RingdStoreNotWritable")).contains("ringd_store_writable").contains("== 0");
        assertThat(alerts.get("RingdStoreNotWritable").get("for")).isEqualTo("2m");
        assertThat(exprs.get("RingdInstanceLagging")).contains("max by (ring) (ringd_ring_version").contains("ringd_ring_loaded");
        assertThat(alerts.get("RingdInstanceLagging").get("for")).isEqualTo("2m");
        assertThat(exprs.get("RingdFollowersDiverged")).contains("max by (ring) (ringd_followers{").contains("state=\"diverged\"")
                .endsWith("> 0");
        assertThat(alerts.get("RingdFollowersDiverged").get("for")).isEqualTo("1m");
        assertThat(String.valueOf(map(alerts.get("RingdFollowersDiverged"), "annotations").get("description")))
                .contains("GET /rings/{{ $labels.ring }}/followers?state=diverged");
        assertThat(exprs.get("RingdFollowersNotConverged")).contains("max by (ring) (ringd_followers_converged_share{")
                .endsWith("< 0.9");
        assertThat(alerts.get("RingdFollowersNotConverged").get("for")).isEqualTo("10m");
        assertThat(exprs.get("RingdPlanPausedOnGate")).isEqualTo("max by (ring) (ringd_plan_paused_on_gate{job=\"ringd\"}) == 1");
        assertThat(alerts.get("RingdPlanPausedOnGate").get("for")).isEqualTo("2m");
        assertThat(String.valueOf(map(alerts.get("RingdPlanPausedOnGate"), "annotations").get("description")))
                .contains("GET /rings/{{ $labels.ring }}/followers?state=behind")
                .contains("POST /rings/{{ $labels.ring }}/plans/<id>/resume")
                .contains("POST /rings/{{ $labels.ring }}/plans/<id>/abort");
        assertThat(exprs.get("RingdPlanFailed")).contains("max by (ring) (ringd_plan_state{job=\"ringd\", state=\"failed\"}) == 1")
                .contains("unless on (ring)").contains("min_over_time(");
        assertThat(String.valueOf(map(alerts.get("RingdPlanFailed"), "annotations").get("description")))
                .contains("GET /rings/{{ $labels.ring }}/plans");
    }

    /**
     * Every instance sharing a store exports the same newest plan of a ring: what reads the plan
     * gauges (alerts and panels) takes the max over the instances, never the sum, which would add
     * up steps and states once per instance.
     */
    @Test
    void plansAreReadOnceHoweverManyInstancesExportThem() {
        Pattern planGauge = Pattern.compile("ringd_plan_");
        List<String> queries = new ArrayList<>(DeployAssets.dashboardQueries());
        queries.addAll(DeployAssets.ruleExpressions().values());
        List<String> reading = queries.stream().filter(q -> planGauge.matcher(q).find()).toList();
        assertThat(reading).hasSizeGreaterThanOrEqualTo(7);
        for (String query : reading) {
            assertThat(query).as("a plan gauge summed over the instances").doesNotContainPattern("\\b(sum|count|avg)\\b")
                    .contains("max");
        }
    }

    /**
     * Every instance sharing a store exports the same view of a ring's followers: what reads their
     * gauges (alerts and panels) takes the max over the instances, never the sum, which would count
     * each follower once per instance.
     */
    @Test
    void followersAreCountedOnceHoweverManyInstancesExportThem() {
        Pattern followerGauge = Pattern.compile("ringd_followers(\\{|_converged_share)");
        List<String> queries = new ArrayList<>(DeployAssets.dashboardQueries());
        queries.addAll(DeployAssets.ruleExpressions().values());
        List<String> reading = queries.stream().filter(q -> followerGauge.matcher(q).find()).toList();
        assertThat(reading).hasSizeGreaterThanOrEqualTo(4);
        for (String query : reading) {
            assertThat(query).as("a follower gauge summed over the instances").doesNotContainPattern("\\b(sum|count|avg)\\b")
                    .contains("max");
        }
    }

    @Test
    void queriedRingdMetricsAreThoseTheServiceExposes() {
        Set<String> queried = DeployAssets.queriedRingdMetrics();
        assertThat(queried).isNotEmpty().allMatch(name -> name.startsWith("ringd_"));
        assertThat(CONTRACT_METRICS).containsAll(queried);
        assertThat(queried).contains("ringd_ring_info", "ringd_routes_total", "ringd_ownership_share",
                "ringd_ring_version", "ringd_stale_requests_total", "ringd_client_version_lag_bucket",
                "ringd_membership_changes_total", "ringd_store_writable", "ringd_ring_loaded",
                "ringd_store_apply_seconds_bucket");
    }

    // ---- docker-compose ----------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {ComposeFile.SINGLE, ComposeFile.CLUSTER})
    void everyFileTheComposeFileMountsExists(String file) {
        ComposeFile compose = ComposeFile.read(file);
        int mounts = 0;
        for (Map.Entry<String, Map<String, Object>> service : compose.services().entrySet()) {
            for (String source : ComposeFile.bindMounts(service.getValue()).keySet()) {
                assertThat(root.resolve(source).normalize())
                        .as("%s of service %s in %s", source, service.getKey(), file).exists();
                mounts++;
            }
            for (String source : ComposeFile.volumes(service.getValue()).keySet()) {
                if (!source.startsWith(".") && !source.startsWith("/")) {
                    assertThat(compose.namedVolumes()).as("named volume %s of service %s in %s", source, service.getKey(), file)
                            .contains(source);
                }
            }
            Object build = service.getValue().get("build");
            if (build != null) {
                String context = build instanceof Map<?, ?> m ? String.valueOf(m.get("context")) : String.valueOf(build);
                assertThat(root.resolve(context).resolve("Dockerfile")).isRegularFile();
            }
        }
        assertThat(mounts).isGreaterThanOrEqualTo(4);
    }

    /** Every image that is pulled names a version: no "latest", no bare name. */
    @ParameterizedTest
    @ValueSource(strings = {ComposeFile.SINGLE, ComposeFile.CLUSTER})
    void everyPulledImageIsPinned(String file) {
        ComposeFile compose = ComposeFile.read(file);
        compose.services().forEach((name, service) -> {
            if (service.containsKey("build")) {
                return; // built here from the Dockerfile
            }
            assertThat(String.valueOf(service.get("image"))).as("image of %s in %s", name, file)
                    .matches("[a-z0-9./-]+:v?\\d+(\\.\\d+)+[A-Za-z0-9._-]*");
        });
    }

    @Test
    void composeRunsRingdWithAVolumeAndTheAdminTokenFromTheEnvironment() {
        ComposeFile compose = ComposeFile.read(ComposeFile.SINGLE);
        Map<String, Object> ringd = compose.service("ringd");
        assertThat(String.valueOf(ringd.get("build"))).isEqualTo(".");
        assertThat(ComposeFile.environment(ringd)).containsEntry("RINGD_ADMIN_TOKEN", ComposeFile.REQUIRED_ADMIN_TOKEN);
        assertThat(list(ringd, "ports")).anySatisfy(p -> assertThat(String.valueOf(p)).endsWith("8080:8080"));
        assertThat(list(ringd, "volumes")).anySatisfy(v -> assertThat(String.valueOf(v)).endsWith(":/data"));
        assertThat(list(compose.service("prometheus"), "ports")).anySatisfy(p -> assertThat(String.valueOf(p)).endsWith("9090:9090"));
        assertThat(list(compose.service("grafana"), "ports")).anySatisfy(p -> assertThat(String.valueOf(p)).endsWith("3000:3000"));
        assertThat(String.valueOf(compose.service("prometheus").get("image"))).startsWith("prom/prometheus:");
        assertThat(String.valueOf(compose.service("grafana").get("image"))).startsWith("grafana/grafana:");
    }

    @ParameterizedTest
    @ValueSource(strings = {ComposeFile.SINGLE, ComposeFile.CLUSTER})
    void ringdRunsOnAReadOnlyRootFileSystemWithATmpfsForTemporaryFiles(String file) {
        ComposeFile compose = ComposeFile.read(file);
        List<String> ringds = compose.servicesBuiltFromTheProject();
        assertThat(ringds).as("ringd services of %s", file).isNotEmpty();
        for (String name : ringds) {
            Map<String, Object> ringd = compose.service(name);
            assertThat(ringd.get("read_only")).as("read_only of %s in %s", name, file).isEqualTo(Boolean.TRUE);
            Object tmpfs = ringd.get("tmpfs");
            List<String> mounts = tmpfs instanceof List<?> l ? l.stream().map(String::valueOf).toList()
                    : tmpfs == null ? List.of() : List.of(String.valueOf(tmpfs));
            assertThat(mounts).as("tmpfs of %s in %s: java.io.tmpdir (the container's work folder) must be writable",
                    name, file).anyMatch(m -> m.equals("/tmp") || m.startsWith("/tmp:"));
        }
        assertThat(DeployAssets.read("Dockerfile")).as("the Dockerfile documents running read-only")
                .contains("--read-only --tmpfs /tmp");
    }

    @ParameterizedTest
    @ValueSource(strings = {ComposeFile.SINGLE, ComposeFile.CLUSTER})
    void everyServiceHasAMemoryLimit_andRingdsHeapFitsTheLargestRing(String file) {
        ComposeFile compose = ComposeFile.read(file);
        for (Map.Entry<String, Map<String, Object>> e : compose.services().entrySet()) {
            assertThat(e.getValue().get("mem_limit")).as("mem_limit of %s in %s", e.getKey(), file).isNotNull();
        }
        java.util.regex.Matcher percent = java.util.regex.Pattern.compile("-XX:MaxRAMPercentage=(\\d+)")
                .matcher(DeployAssets.read("Dockerfile"));
        assertThat(percent.find()).as("the image sizes its heap from the container's memory").isTrue();
        for (String name : compose.servicesBuiltFromTheProject()) {
            Map<String, Object> ringd = compose.service(name);
            assertThat(ComposeFile.environment(ringd)).as("%s keeps the image's heap settings", name)
                    .doesNotContainKey("JAVA_TOOL_OPTIONS");
            long limit = bytes(String.valueOf(ringd.get("mem_limit")));
            long heap = limit * Integer.parseInt(percent.group(1)) / 100;
            assertThat(heap).as("heap of %s in %s: a 1 GiB heap holds the largest ring (docs/reliability.md)",
                    name, file).isGreaterThanOrEqualTo(1L << 30);
            assertThat(limit - heap).as("memory beside the heap of %s in %s", name, file)
                    .isGreaterThanOrEqualTo(256L << 20);
        }
        for (Map.Entry<String, Map<String, Object>> e : compose.services().entrySet()) {
            if (String.valueOf(e.getValue().get("image")).startsWith("zookeeper:")) {
                long heap = Long.parseLong(String.valueOf(ComposeFile.environment(e.getValue()).get("ZK_SERVER_HEAP")));
                assertThat(heap << 20).as("ZooKeeper's heap in %s", e.getKey())
                        .isLessThanOrEqualTo(bytes(String.valueOf(e.getValue().get("mem_limit"))) / 2);
            }
        }
    }

    /** A compose memory size ({@code 1536m}, {@code 2g}, or bytes) in bytes. */
    private static long bytes(String size) {
        String s = size.trim().toLowerCase(java.util.Locale.ROOT);
        long unit = switch (s.charAt(s.length() - 1)) {
            case 'k' -> 1L << 10;
            case 'm' -> 1L << 20;
            case 'g' -> 1L << 30;
            default -> 1;
        };
        return Long.parseLong(unit == 1 ? s : s.substring(0, s.length() - 1)) * unit;
    }

    // ---- the cluster stack: docker-compose.cluster.yml ---------------------------------------

    @Test
    void clusterRunsAThreeNodeZooKeeperEnsembleWithHealthChecks() {
        ComposeFile cluster = ComposeFile.read(ComposeFile.CLUSTER);
        List<String> zk = cluster.servicesWithImage("zookeeper:");
        assertThat(zk).as("ZooKeeper services").hasSize(3);
        Set<String> ids = new HashSet<>();
        Set<String> serverLists = new HashSet<>();
        for (String name : zk) {
            Map<String, Object> service = cluster.service(name);
            assertThat(String.valueOf(service.get("image"))).as("image of %s", name).matches("zookeeper:3\\.9\\.\\d+");
            Map<String, String> env = ComposeFile.environment(service);
            assertThat(env).containsKeys("ZOO_MY_ID", "ZOO_SERVERS");
            String id = env.get("ZOO_MY_ID");
            assertThat(ids.add(id)).as("ZOO_MY_ID %s of %s is unique", id, name).isTrue();
            serverLists.add(env.get("ZOO_SERVERS"));
            // Its own entry names it with its id, with the client port.
            assertThat(env.get("ZOO_SERVERS").split("\\s+")).contains("server." + id + "=" + name + ":2888:3888;2181");

            Map<String, Object> healthcheck = map(service, "healthcheck");
            assertThat(String.valueOf(healthcheck.get("test"))).as("health check of %s", name).isNotBlank().doesNotContain("NONE");
            assertThat(healthcheck.get("disable")).isNotEqualTo(true);
            assertThat(ComposeFile.volumes(service)).as("%s keeps its data in a named volume", name).containsValue("/data");
        }
        assertThat(ids).containsExactlyInAnyOrder("1", "2", "3");
        assertThat(serverLists).as("every node is given the same ensemble").hasSize(1);
        assertThat(serverLists.iterator().next().split("\\s+")).hasSize(3);
    }

    @Test
    void clusterRunsThreeRingdReplicasSharingTheEnsembleAndTheAdminToken() {
        ComposeFile cluster = ComposeFile.read(ComposeFile.CLUSTER);
        List<String> zk = cluster.servicesWithImage("zookeeper:");
        List<String> replicas = cluster.servicesBuiltFromTheProject();
        assertThat(replicas).as("ringd services built from the Dockerfile").hasSize(3);
        String connect = String.join(",", zk.stream().map(z -> z + ":2181").toList());
        for (String name : replicas) {
            Map<String, Object> service = cluster.service(name);
            Map<String, String> env = ComposeFile.environment(service);
            assertThat(env).as("environment of %s", name)
                    .containsEntry("RINGD_ADMIN_TOKEN", ComposeFile.REQUIRED_ADMIN_TOKEN)
                    .containsEntry("RINGD_STORE", "zookeeper")
                    .containsEntry("RINGD_ZOOKEEPER_CONNECT", connect)
                    .containsEntry("RINGD_ZOOKEEPER_CONNECT", "zk1:2181,zk2:2181,zk3:2181");
            assertThat(env.getOrDefault("RINGD_ZOOKEEPER_PATH", "/ringd")).isEqualTo("/ringd");
            assertThat(ComposeFile.dependsOn(service)).as("%s starts after the ensemble", name).containsAll(zk);
            for (String z : zk) {
                assertThat(ComposeFile.dependencyCondition(service, z)).isEqualTo("service_healthy");
            }
            // Only the load balancer is published on every interface.
            assertThat(ComposeFile.ports(service)).allSatisfy(p -> assertThat(p).startsWith("127.0.0.1:"));
        }
    }

    @Test
    void clusterLoadBalancerChecksReadinessOfEachReplicaAndKeepsEventStreamsOpen() {
        ComposeFile cluster = ComposeFile.read(ComposeFile.CLUSTER);
        List<String> replicas = cluster.servicesBuiltFromTheProject();
        List<String> lbs = cluster.servicesWithImage("haproxy:");
        assertThat(lbs).as("the HAProxy service").hasSize(1);
        Map<String, Object> lb = cluster.service(lbs.get(0));
        assertThat(ComposeFile.bindMounts(lb)).containsEntry("./" + HaproxyConfig.PATH, "/usr/local/etc/haproxy/haproxy.cfg");
        assertThat(ComposeFile.ports(lb)).contains("8080:8080");
        assertThat(ComposeFile.dependsOn(lb)).containsAll(replicas);

        HaproxyConfig cfg = HaproxyConfig.read();
        HaproxyConfig.Section frontend = cfg.sections("frontend").stream()
                .filter(f -> f.directives("bind").stream().anyMatch(b -> b.matches("bind \\S*:8080\\b.*")))
                .findFirst().orElseThrow(() -> new AssertionError("no frontend binds port 8080"));

        // Every request but /ring/events: round robin over the replicas that are ready.
        HaproxyConfig.Section api = cfg.section("backend", frontend.directives("default_backend").get(0).split(" ")[1]);
        assertThat(api.directives("option httpchk")).isNotEmpty();
        assertThat(api.lines()).anySatisfy(l -> assertThat(l).matches(
                "(http-check send meth GET uri /actuator/health/readiness( .*)?|option httpchk GET /actuator/health/readiness( .*)?)"));
        assertThat(api.lines()).contains("http-check expect status 200");
        Map<String, String> servers = servers(api);
        assertThat(servers.keySet()).as("servers of backend %s", api.name())
                .containsExactlyInAnyOrderElementsOf(replicas.stream().map(r -> r + ":8080").toList());
        assertThat(servers.values()).allSatisfy(options -> assertThat(options).containsPattern("(^| )check( |$)"));

        // /ring/events: a backend of its own, the same replicas and readiness, long timeouts.
        String eventsAcl = frontend.directives("acl").stream().filter(a -> a.matches("acl \\S+ path(_beg)? /ring/events"))
                .map(a -> a.split(" ")[1]).findFirst().orElseThrow(() -> new AssertionError("no acl for /ring/events"));
        String eventsBackend = frontend.directives("use_backend").stream().filter(u -> u.endsWith(" if " + eventsAcl))
                .map(u -> u.split(" ")[1]).findFirst().orElseThrow(() -> new AssertionError("no use_backend for " + eventsAcl));
        HaproxyConfig.Section events = cfg.section("backend", eventsBackend);
        Map<String, String> eventServers = servers(events);
        assertThat(eventServers.keySet()).containsExactlyInAnyOrderElementsOf(servers.keySet());
        assertThat(eventServers.values()).allSatisfy(options -> assertThat(options)
                .containsPattern("(^| )(check|track " + api.name() + "/\\S+)( |$)"));
        Duration longEnough = Duration.ofMinutes(10);
        assertThat(cfg.timeout(events, "server")).as("timeout server of %s", events.name()).hasValueSatisfying(
                t -> assertThat(t).isGreaterThanOrEqualTo(longEnough));
        assertThat(cfg.timeout(frontend, "client")).as("timeout client of %s", frontend.name()).hasValueSatisfying(
                t -> assertThat(t).isGreaterThanOrEqualTo(longEnough));
        // ... while an ordinary request still gives up on a silent server soon, and a silent client.
        assertThat(cfg.timeout(api, "server")).hasValueSatisfying(t -> assertThat(t).isLessThanOrEqualTo(Duration.ofMinutes(1)));
        assertThat(cfg.timeout(frontend, "http-request")).hasValueSatisfying(t -> assertThat(t).isLessThanOrEqualTo(Duration.ofSeconds(30)));

        // Nothing holds responses back: no compression, no buffering of whole responses.
        assertThat(cfg.allDirectives()).noneSatisfy(d -> assertThat(d).matches("(compression|filter compression|option http-buffer-request)\\b.*"));
    }

    @Test
    void clusterPrometheusScrapesEachReplicaAsItsOwnInstance() {
        ComposeFile cluster = ComposeFile.read(ComposeFile.CLUSTER);
        Map<String, Object> prometheus = cluster.service("prometheus");
        String command = String.valueOf(prometheus.get("command"));
        Matcher m = Pattern.compile("--config\\.file=/etc/prometheus/([\\w.-]+)").matcher(command);
        assertThat(m.find()).as("--config.file of the cluster's Prometheus").isTrue();
        assertThat(ComposeFile.bindMounts(prometheus)).containsEntry("./deploy/prometheus", "/etc/prometheus");
        String configFile = "deploy/prometheus/" + m.group(1);
        assertThat(configFile).isEqualTo("deploy/prometheus/prometheus-cluster.yml");

        Map<String, Object> job = ringdScrapeJob(configFile);
        List<String> targets = new ArrayList<>();
        for (Object sc : list(job, "static_configs")) {
            list(cast(sc), "targets").forEach(t -> targets.add(String.valueOf(t)));
        }
        List<String> replicas = cluster.servicesBuiltFromTheProject();
        assertThat(targets).as("one target per replica, never the load balancer")
                .containsExactlyInAnyOrderElementsOf(replicas.stream().map(r -> r + ":8080").toList());
        // The instance label is the target's address unless relabelled: nothing may rewrite it.
        for (String key : List.of("relabel_configs", "metric_relabel_configs")) {
            Object relabels = job.get(key);
            if (relabels != null) {
                for (Object r : (List<?>) relabels) {
                    assertThat(String.valueOf(((Map<?, ?>) r).get("target_label"))).as(key).isNotEqualTo("instance");
                }
            }
        }
    }

    // ---- Dockerfile --------------------------------------------------------------------------

    @Test
    void dockerfileIsMultiStageNonRootWithHealthCheckAndDataVolume() {
        List<String> instructions = DeployAssets.dockerfileInstructions();
        List<String> froms = instructions.stream().filter(i -> keyword(i).equals("FROM")).toList();
        assertThat(froms).hasSizeGreaterThanOrEqualTo(2);
        assertThat(froms.get(0)).matches("(?i)FROM\\s+(--platform=\\S+\\s+)?\\S+\\s+AS\\s+build");
        assertThat(froms.get(0)).containsPattern("eclipse-temurin:\\S*jdk");
        assertThat(froms.get(froms.size() - 1)).containsPattern("eclipse-temurin:\\S*jre");

        // Everything below concerns the final stage.
        List<String> run = instructions.subList(instructions.lastIndexOf(froms.get(froms.size() - 1)), instructions.size());

        List<String> users = run.stream().filter(i -> keyword(i).equals("USER")).toList();
        assertThat(users).as("USER in the run stage").isNotEmpty();
        String user = users.get(users.size() - 1).substring(4).trim().split(":")[0];
        assertThat(user).isNotIn("root", "0", "");

        assertThat(run).anySatisfy(i -> assertThat(i).matches("(?i)HEALTHCHECK\\s+.*CMD\\s+.+"));
        assertThat(run).anySatisfy(i -> assertThat(i).matches("(?i)VOLUME\\s+(\\[\\s*\"/data\"\\s*]|/data)"));
        assertThat(run).anySatisfy(i -> assertThat(i).matches("(?i)EXPOSE\\s+8080(/tcp)?"));
        assertThat(run).anySatisfy(i -> assertThat(i).matches("(?is)ENV\\s+.*RINGD_DATA_DIR=/data.*"));
        assertThat(run).anySatisfy(i -> assertThat(i).matches("(?is)ENV\\s+.*JAVA_TOOL_OPTIONS=.*MaxRAMPercentage.*"));
        assertThat(run).anySatisfy(i -> assertThat(i).startsWith("ENTRYPOINT").contains("/app/ringd.jar"));

        // The admin token is never baked into the image.
        assertThat(instructions).noneSatisfy(i -> assertThat(i).matches("(?is)(ENV|ARG)\\s+.*RINGD_ADMIN_TOKEN.*"));

        // The build uses the wrapper, with a dependency layer before the sources.
        String all = String.join("\n", instructions);
        assertThat(all).contains("./mvnw -B -ntp -DskipTests package").contains("dependency:go-offline");
        assertThat(all.indexOf("dependency:go-offline")).isLessThan(all.indexOf("COPY src/"));
    }

    @Test
    void everyFileTheDockerfileCopiesIsInTheBuildContext() throws IOException {
        List<String> ignored = Files.readAllLines(root.resolve(".dockerignore")).stream()
                .map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        for (String instruction : DeployAssets.dockerfileInstructions()) {
            if (!keyword(instruction).equals("COPY") || instruction.contains("--from=")) {
                continue;
            }
            String[] words = instruction.trim().split("\\s+");
            for (int i = 1; i < words.length - 1; i++) {
                if (words[i].startsWith("--")) {
                    continue;
                }
                String source = words[i].replaceAll("/$", "");
                assertThat(root.resolve(source)).as("COPY source %s", source).exists();
                for (String pattern : ignored) {
                    String p = pattern.replaceAll("/$", "");
                    assertThat(source.equals(p) || source.startsWith(p + "/"))
                            .as("COPY source %s is excluded by .dockerignore entry %s", source, pattern).isFalse();
                }
            }
        }
        assertThat(ignored).contains(".git", "target/", "data/");
    }

    /** The HEALTHCHECK program: exit 0 only when the readiness endpoint answers 200. */
    @Test
    void healthCheckProgramExitsZeroOnlyWhenReady(@TempDir Path tmp) throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac).as("a JDK (javax.tools compiler) to compile the health check").isNotNull();
        int compiled = javac.run(null, null, null, "--release", "17", "-d", tmp.toString(),
                root.resolve("deploy/docker/HealthCheck.java").toString());
        assertThat(compiled).isZero();

        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/ready", exchange -> {
            byte[] body = "{\"status\":\"UP\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.createContext("/not-ready", exchange -> {
            byte[] body = "{\"status\":\"OUT_OF_SERVICE\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(503, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> command = List.of(java, "-Xmx16m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                    "-cp", tmp.toString(), "HealthCheck");
            assertThat(runJava(command, base + "/ready").exitCode()).isZero();
            assertThat(runJava(command, base + "/not-ready").exitCode()).isEqualTo(1);
            assertThat(runJava(command, "http://127.0.0.1:" + closedPort + "/ready").exitCode()).isEqualTo(1);
            // Without an argument it checks SERVER_PORT's readiness endpoint; here a 404.
            Result byEnv = Commands.run(command, Map.of("SERVER_PORT", String.valueOf(server.getAddress().getPort())), Set.of());
            assertThat(byEnv.exitCode()).isEqualTo(1);
            assertThat(byEnv.output()).contains("/actuator/health/readiness answered 404");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void dockerfileHealthCheckRunsTheCompiledProgram() {
        String all = String.join("\n", DeployAssets.dockerfileInstructions());
        assertThat(all).contains("COPY deploy/docker/HealthCheck.java").contains("javac ");
        String healthcheck = DeployAssets.dockerfileInstructions().stream().filter(i -> keyword(i).equals("HEALTHCHECK")).findFirst().orElseThrow();
        assertThat(healthcheck).contains("\"java\"").contains("/app/healthcheck").contains("HealthCheck");
        assertThat(all).contains("COPY --from=build /build/healthcheck/ /app/healthcheck/");
    }

    // ---- helpers -----------------------------------------------------------------------------

    private Map<String, JsonNode> panelsByTitle() {
        Map<String, JsonNode> byTitle = new LinkedHashMap<>();
        for (JsonNode panel : allPanels()) {
            byTitle.put(panel.path("title").stringValue(""), panel);
        }
        return byTitle;
    }

    private List<JsonNode> allPanels() {
        List<JsonNode> panels = new ArrayList<>();
        for (JsonNode panel : DeployAssets.dashboard().path("panels")) {
            panels.add(panel);
            for (JsonNode nested : panel.path("panels")) {
                panels.add(nested);
            }
        }
        return panels;
    }

    private String provisionedDatasourceUid() {
        Map<String, Object> datasource = first(yaml("deploy/grafana/provisioning/datasources/prometheus.yml"), "datasources");
        String uid = String.valueOf(datasource.get("uid"));
        assertThat(uid).isNotBlank().isNotEqualTo("null");
        return uid;
    }

    /** The PromQL of a panel's targets, in order. */
    private static List<String> exprs(JsonNode panel) {
        List<String> exprs = new ArrayList<>();
        for (JsonNode target : panel.path("targets")) {
            exprs.add(target.path("expr").stringValue(""));
        }
        return exprs;
    }

    /** The legend formats of a panel's targets, in order. */
    private static List<String> legends(JsonNode panel) {
        List<String> legends = new ArrayList<>();
        for (JsonNode target : panel.path("targets")) {
            legends.add(target.path("legendFormat").stringValue(""));
        }
        return legends;
    }

    /** A backend's servers: address to the options after it. */
    private static Map<String, String> servers(HaproxyConfig.Section backend) {
        Map<String, String> servers = new LinkedHashMap<>();
        for (String server : backend.directives("server")) {
            String[] words = server.split(" ", 4);
            assertThat(words).as("server line %s", server).hasSizeGreaterThanOrEqualTo(3);
            servers.put(words[2], words.length > 3 ? words[3] : "");
        }
        return servers;
    }

    /** The "ringd" scrape job of a Prometheus configuration, which must also load rules.yml. */
    private Map<String, Object> ringdScrapeJob(String prometheusConfig) {
        Map<String, Object> config = yaml(prometheusConfig);
        assertThat(list(config, "rule_files")).containsExactly("rules.yml");
        Map<String, Object> job = null;
        for (Object o : list(config, "scrape_configs")) {
            Map<String, Object> scrape = cast(o);
            if ("ringd".equals(scrape.get("job_name"))) {
                job = scrape;
            }
        }
        assertThat(job).as("scrape job \"ringd\" in %s", prometheusConfig).isNotNull();
        assertThat(job.get("metrics_path")).isEqualTo("/actuator/prometheus");
        return job;
    }

    private static String keyword(String instruction) {
        return instruction.split("\\s+", 2)[0].toUpperCase();
    }

    private Map<String, Object> yaml(String relativePath) {
        Map<String, Object> loaded = new Yaml().load(DeployAssets.read(relativePath));
        assertThat(loaded).as(relativePath).isNotNull();
        return loaded;
    }

    @SuppressWarnings("unchecked")
    private static <T> T cast(Object o) {
        return (T) o;
    }

    private static Map<String, Object> map(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        assertThat(value).as(key).isInstanceOf(Map.class);
        return cast(value);
    }

    private static List<Object> list(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        assertThat(value).as(key).isInstanceOf(List.class);
        return cast(value);
    }

    private static Map<String, Object> first(Map<String, Object> parent, String key) {
        List<Object> items = list(parent, key);
        assertThat(items).as(key).isNotEmpty();
        return cast(items.get(0));
    }

    private static Result runJava(List<String> command, String url) throws Exception {
        List<String> withUrl = new ArrayList<>(command);
        withUrl.add(url);
        return Commands.run(withUrl, Map.of(), Set.of());
    }
}
