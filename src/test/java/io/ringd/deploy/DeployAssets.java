package io.ringd.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.yaml.snakeyaml.Yaml;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The deployment files (Grafana dashboard, Prometheus alert rules) and the queries they make,
 * for tests: {@link #queriedRingdMetrics()} lists every {@code ringd_...} metric they read, so a
 * server test can check that a real scrape of {@code /actuator/prometheus} exposes each one.
 */
public final class DeployAssets {

    /** The Grafana dashboard, relative to the project root. */
    public static final String DASHBOARD = "deploy/grafana/dashboards/ringd.json";
    /** The Prometheus alert rules, relative to the project root. */
    public static final String RULES = "deploy/prometheus/rules.yml";

    private static final Pattern RINGD_METRIC = Pattern.compile("(?<![A-Za-z0-9_:])ringd_[A-Za-z0-9_:]+");

    private DeployAssets() {
    }

    /**
     * Every {@code ringd_...} metric name that the dashboard (panel queries, annotation and
     * variable queries) and the alert rules read, as written there: base names of gauges, and
     * counters and distribution summaries with their {@code _total}, {@code _bucket},
     * {@code _count}, {@code _sum} or {@code _max} suffix.
     */
    public static Set<String> queriedRingdMetrics() {
        Set<String> names = new TreeSet<>();
        List<String> queries = new ArrayList<>(dashboardQueries());
        queries.addAll(dashboardVariableQueries());
        queries.addAll(ruleExpressions().values());
        for (String query : queries) {
            Matcher m = RINGD_METRIC.matcher(query);
            while (m.find()) {
                names.add(m.group());
            }
        }
        return Collections.unmodifiableSet(names);
    }

    /**
     * Whether a ringd metric is the instance's as a whole, tagged with no ring (docs/ring.md section 22):
     * the change streams' ({@code ringd_watch_...}) and the admin token's; every other is one ring's.
     */
    public static boolean instanceWide(String metric) {
        return metric.startsWith("ringd_watch_") || metric.startsWith("ringd_admin_");
    }

    /**
     * Each read of a ring's metric in {@code expr} whose selector lacks {@code matcher} (such as
     * {@code ring="$ring"}), as written: the name and its selector, if any. Instance-wide metrics are
     * left out.
     */
    public static List<String> unfilteredRingReads(String expr, String matcher) {
        List<String> unfiltered = new ArrayList<>();
        Matcher m = RINGD_METRIC.matcher(expr);
        while (m.find()) {
            if (instanceWide(m.group())) {
                continue;
            }
            int at = m.end();
            if (at < expr.length() && expr.charAt(at) == '{') {
                int close = expr.indexOf('}', at);
                String selector = expr.substring(at, close < 0 ? expr.length() : close + 1);
                if (!selector.replace(" ", "").contains(matcher)) {
                    unfiltered.add(m.group() + selector);
                }
            } else {
                unfiltered.add(m.group());
            }
        }
        return unfiltered;
    }

    /** The PromQL of every panel target and every Prometheus annotation of the dashboard. */
    public static List<String> dashboardQueries() {
        List<String> exprs = new ArrayList<>();
        collectExprs(dashboard(), exprs);
        return exprs;
    }

    /** The queries of the dashboard's template variables (Grafana syntax, such as label_values). */
    public static List<String> dashboardVariableQueries() {
        List<String> queries = new ArrayList<>();
        for (JsonNode variable : dashboard().path("templating").path("list")) {
            JsonNode query = variable.path("query");
            if (query.isString()) {
                queries.add(query.stringValue());
            } else if (query.path("query").isString()) {
                queries.add(query.path("query").stringValue());
            }
            if (variable.path("definition").isString()) {
                queries.add(variable.path("definition").stringValue());
            }
        }
        return queries;
    }

    /** Alert (or recording rule) name to its PromQL expression, over every group of the rules file. */
    public static Map<String, String> ruleExpressions() {
        Map<String, String> exprs = new java.util.LinkedHashMap<>();
        for (Map<String, Object> rule : rules()) {
            Object name = rule.containsKey("alert") ? rule.get("alert") : rule.get("record");
            exprs.put(String.valueOf(name), String.valueOf(rule.get("expr")));
        }
        return exprs;
    }

    /** Every rule of the rules file, as parsed YAML maps. */
    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> rules() {
        Map<String, Object> file = new Yaml().load(read(RULES));
        List<Map<String, Object>> rules = new ArrayList<>();
        for (Map<String, Object> group : (List<Map<String, Object>>) file.get("groups")) {
            rules.addAll((List<Map<String, Object>>) group.get("rules"));
        }
        return rules;
    }

    /** The dashboard JSON. */
    public static JsonNode dashboard() {
        return JsonMapper.builder().build().readTree(read(DASHBOARD));
    }

    /** The project root: the nearest folder at or above the working directory holding pom.xml and deploy/. */
    public static Path projectRoot() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path d = dir; d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("pom.xml")) && Files.isDirectory(d.resolve("deploy"))) {
                return d;
            }
        }
        throw new IllegalStateException("no project root (pom.xml and deploy/) at or above " + dir);
    }

    /** The Dockerfile's instructions, continuation lines joined and comments dropped. */
    public static List<String> dockerfileInstructions() {
        List<String> instructions = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : read("Dockerfile").split("\n")) {
            String trimmed = line.trim();
            if (trimmed.startsWith("#") || (trimmed.isEmpty() && current.length() == 0)) {
                continue;
            }
            if (trimmed.endsWith("\\")) {
                current.append(trimmed, 0, trimmed.length() - 1).append(' ');
                continue;
            }
            current.append(trimmed);
            if (current.length() > 0) {
                instructions.add(current.toString().replaceAll("\\s+", " ").trim());
            }
            current.setLength(0);
        }
        return instructions;
    }

    static String read(String relativePath) {
        try {
            return Files.readString(projectRoot().resolve(relativePath));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void collectExprs(JsonNode node, List<String> out) {
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                if (field.getKey().equals("expr") && field.getValue().isString()) {
                    out.add(field.getValue().stringValue());
                } else {
                    collectExprs(field.getValue(), out);
                }
            }
        } else if (node.isArray()) {
            for (JsonNode element : node) {
                collectExprs(element, out);
            }
        }
    }
}
