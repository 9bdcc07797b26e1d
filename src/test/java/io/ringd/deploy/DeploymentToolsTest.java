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
 * The deployment checks that run the real tools: promtool on the Prometheus configurations, the
 * alert rules and their unit tests and every dashboard query, docker-compose on both compose
 * files, and haproxy on the cluster's load balancer configuration. {@link DeploymentFilesTest}
 * has the checks that need Java alone.
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
            "docker-compose", "docker-compose",
            "haproxy", "haproxy");

    /** Folders outside a user's PATH where Debian puts administration tools (haproxy is in /usr/sbin). */
    static final List<String> SBIN = List.of("/usr/local/sbin", "/usr/sbin", "/sbin");

    // ---- Prometheus --------------------------------------------------------------------------

    @Test
    void promtoolAcceptsThePrometheusConfig() throws Exception {
        Commands.expectSuccess(tool(List.of("promtool", "check", "config", "deploy/prometheus/prometheus.yml"), Map.of(), Set.of()));
    }

    @Test
    void promtoolAcceptsTheClusterPrometheusConfig() throws Exception {
        Commands.expectSuccess(tool(List.of("promtool", "check", "config", "deploy/prometheus/prometheus-cluster.yml"), Map.of(), Set.of()));
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
                    .replace("$__range", "1h").replace("$instance", ".*").replace("$ring", "default");
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

    /** The cluster stack, as docker-compose reads it (YAML anchors and merge keys, variables). */
    @Test
    void dockerComposeAcceptsTheClusterComposeFile() throws Exception {
        Result result = tool(List.of("docker-compose", "-f", ComposeFile.CLUSTER, "config"),
                Map.of("RINGD_ADMIN_TOKEN", "test-token-0123456789"), Set.of());
        Commands.expectSuccess(result);
        String yaml = result.output().substring(result.output().indexOf("services:"));
        ComposeFile resolved = ComposeFile.parse("docker-compose config of " + ComposeFile.CLUSTER, yaml);

        List<String> replicas = resolved.servicesWithImage("ringd:");
        assertThat(replicas).containsExactlyInAnyOrder("ringd1", "ringd2", "ringd3");
        for (String name : replicas) {
            assertThat(ComposeFile.environment(resolved.service(name))).as("environment of %s", name)
                    .containsEntry("RINGD_ADMIN_TOKEN", "test-token-0123456789")
                    .containsEntry("RINGD_STORE", "zookeeper")
                    .containsEntry("RINGD_ZOOKEEPER_CONNECT", "zk1:2181,zk2:2181,zk3:2181");
            assertThat(resolved.service(name)).containsKey("build");
            for (String zk : List.of("zk1", "zk2", "zk3")) {
                assertThat(ComposeFile.dependencyCondition(resolved.service(name), zk)).isEqualTo("service_healthy");
            }
        }
        List<String> ensemble = resolved.servicesWithImage("zookeeper:");
        assertThat(ensemble).containsExactlyInAnyOrder("zk1", "zk2", "zk3");
        for (String name : ensemble) {
            Map<String, Object> zk = resolved.service(name);
            assertThat(ComposeFile.environment(zk)).containsEntry("ZOO_MY_ID", name.substring(2))
                    .containsEntry("ZOO_SERVERS", "server.1=zk1:2888:3888;2181 server.2=zk2:2888:3888;2181 server.3=zk3:2888:3888;2181");
            assertThat(zk).containsKey("healthcheck");
        }
        assertThat(ComposeFile.ports(resolved.service("lb"))).contains("8080:8080");
    }

    @Test
    void dockerComposeRefusesToRunTheClusterWithoutAnAdminToken(@TempDir Path tmp) throws Exception {
        Path emptyEnv = Files.writeString(tmp.resolve("empty.env"), "");
        Result result = tool(List.of("docker-compose", "-f", ComposeFile.CLUSTER, "--env-file", emptyEnv.toString(), "config", "-q"),
                Map.of(), Set.of("RINGD_ADMIN_TOKEN"));
        assertThat(result.exitCode()).as("exit code of %s", result.command()).isNotZero();
        assertThat(result.output()).contains("set RINGD_ADMIN_TOKEN");
    }

    // ---- HAProxy -----------------------------------------------------------------------------

    /**
     * HAProxy accepts the load balancer's configuration. The replicas' names resolve only inside
     * the compose network, so the only warnings allowed are those of addresses not resolved.
     */
    @Test
    void haproxyAcceptsTheLoadBalancerConfig() throws Exception {
        Result result = tool(List.of("haproxy", "-c", "-f", HaproxyConfig.PATH), Map.of(), Set.of());
        Commands.expectSuccess(result);
        assertThat(result.output()).contains("Configuration file is valid");
        assertThat(result.output().lines().filter(l -> l.contains("[WARNING]")))
                .allSatisfy(l -> assertThat(l).contains("could not resolve address"));
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
        List<String> resolved = new ArrayList<>(command);
        if (!Commands.onPath(tool)) {
            Path sbin = SBIN.stream().map(dir -> Path.of(dir, tool)).filter(Files::isExecutable).findFirst()
                    .orElse(null);
            if (sbin == null) {
                fail(tool + " is not on the PATH: " + install);
            }
            resolved.set(0, sbin.toString());
        }
        Result result = Commands.run(resolved, env, unset);
        if (result.exitCode() == 127) {
            fail(tool + " on the PATH could not run (exit code 127): " + install + "; its output: " + result.output().strip());
        }
        return result;
    }
}
