package io.ringd.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

import io.ringd.deploy.Commands.Result;

/**
 * The deployment checks that run the real tools: promtool on the Prometheus configuration, the
 * alert rules and their unit tests and every dashboard query, and docker-compose on the compose
 * file. {@link DeploymentFilesTest} has the checks that need Java alone.
 *
 * <p>Tagged {@code tools}: {@code ./mvnw verify} leaves these out, {@code ./mvnw -Ptools verify}
 * runs them alone. A tool missing from the PATH fails the test (never skips it), naming the
 * Debian package that brings it; .ci/run installs them.
 */
@Tag("tools")
class DeploymentToolsTest {

    /** Each tool these checks run, and the Debian package that brings it. */
    static final Map<String, String> DEBIAN_PACKAGES = Map.of(
            "promtool", "prometheus",
            "docker-compose", "docker-compose");

    // ---- Prometheus --------------------------------------------------------------------------

    @Test
    void promtoolAcceptsThePrometheusConfig() throws Exception {
        Commands.expectSuccess(tool(List.of("promtool", "check", "config", "deploy/prometheus/prometheus.yml"), Map.of(), Set.of()));
    }

    @Test
    void promtoolAcceptsTheRules() throws Exception {
        Commands.expectSuccess(tool(List.of("promtool", "check", "rules", "deploy/prometheus/rules.yml"), Map.of(), Set.of()));
    }

    @Test
    void alertRulesPassTheirUnitTests() throws Exception {
        Commands.expectSuccess(tool(List.of("promtool", "test", "rules", "deploy/prometheus/rules_test.yml"), Map.of(), Set.of()));
    }

    /** Every dashboard query parses as PromQL (Grafana's variables replaced by plain values). */
    @Test
    void promtoolParsesEveryDashboardQuery(@TempDir Path tmp) throws Exception {
        List<Map<String, Object>> rules = new ArrayList<>();
        int n = 0;
        for (String expr : DeployAssets.dashboardQueries()) {
            String promql = expr.replace("$__rate_interval", "1m").replace("$__interval", "1m")
                    .replace("$__range", "1h").replace("$instance", ".*");
            assertThat(promql).as("unreplaced Grafana variable in %s", expr).doesNotContain("$");
            Map<String, Object> rule = new LinkedHashMap<>();
            rule.put("record", "dashboard:query_" + (++n));
            rule.put("expr", promql);
            rules.add(rule);
        }
        assertThat(n).isGreaterThanOrEqualTo(DeploymentFilesTest.REQUIRED_PANELS.size());
        Map<String, Object> group = Map.of("name", "dashboard-queries", "rules", rules);
        Path file = tmp.resolve("dashboard-queries.yml");
        Files.writeString(file, new Yaml().dump(Map.of("groups", List.of(group))));
        Commands.expectSuccess(tool(List.of("promtool", "check", "rules", file.toString()), Map.of(), Set.of()));
    }

    // ---- docker-compose ----------------------------------------------------------------------

    @Test
    void dockerComposeAcceptsTheComposeFile() throws Exception {
        Commands.expectSuccess(tool(List.of("docker-compose", "-f", "docker-compose.yml", "config", "-q"),
                Map.of("RINGD_ADMIN_TOKEN", "test-token"), Set.of()));
    }

    @Test
    void dockerComposeRefusesToRunWithoutAnAdminToken(@TempDir Path tmp) throws Exception {
        Path emptyEnv = Files.writeString(tmp.resolve("empty.env"), "");
        Result result = tool(List.of("docker-compose", "-f", "docker-compose.yml", "--env-file", emptyEnv.toString(), "config", "-q"),
                Map.of(), Set.of("RINGD_ADMIN_TOKEN"));
        assertThat(result.exitCode()).as("exit code of %s", result.command()).isNotZero();
        assertThat(result.output()).contains("set RINGD_ADMIN_TOKEN");
    }

    // ---- helpers -----------------------------------------------------------------------------

    /**
     * Runs one of {@link #DEBIAN_PACKAGES}' tools; fails, naming the package to install, when the
     * tool is not on the PATH or cannot be run there (exit code 127, as a shell answers for a
     * missing command).
     */
    private static Result tool(List<String> command, Map<String, String> env, Set<String> unset) throws Exception {
        String tool = command.get(0);
        String install = "install it (Debian package " + DEBIAN_PACKAGES.get(tool) + ": apt-get install "
                + DEBIAN_PACKAGES.get(tool) + "; .ci/run installs it)";
        if (!Commands.onPath(tool)) {
            fail(tool + " is not on the PATH: " + install);
        }
        Result result = Commands.run(command, env, unset);
        if (result.exitCode() == 127) {
            fail(tool + " on the PATH could not run (exit code 127): " + install + "; its output: " + result.output().strip());
        }
        return result;
    }
}
