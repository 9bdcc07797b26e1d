package io.ringd.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.yaml.snakeyaml.Yaml;

/**
 * A compose file for the deployment tests, as YAML: anchors and merge keys ({@code <<: *ringd})
 * resolved by the YAML parser, {@code ${VARIABLES}} left as written. {@link #parse} also reads
 * what {@code docker-compose config} prints, where compose has resolved everything.
 */
final class ComposeFile {

    /** The single-instance stack: ringd, Prometheus, Grafana. */
    static final String SINGLE = "docker-compose.yml";
    /** The cluster stack: ZooKeeper ensemble, three ringd instances, HAProxy, Prometheus, Grafana. */
    static final String CLUSTER = "docker-compose.cluster.yml";

    /** The admin token as both compose files take it: from the environment, required. */
    static final String REQUIRED_ADMIN_TOKEN = "${RINGD_ADMIN_TOKEN:?set RINGD_ADMIN_TOKEN}";

    private final String name;
    private final Map<String, Object> root;

    private ComposeFile(String name, Map<String, Object> root) {
        this.name = name;
        this.root = root;
    }

    /** The compose file at {@code relativePath} from the project root. */
    static ComposeFile read(String relativePath) {
        return parse(relativePath, DeployAssets.read(relativePath));
    }

    /** A compose file from its text; {@code name} names it in assertion messages. */
    static ComposeFile parse(String name, String yaml) {
        Map<String, Object> root = new Yaml().load(yaml);
        assertThat(root).as(name).isNotNull();
        assertThat(root.get("services")).as("services of %s", name).isInstanceOf(Map.class);
        return new ComposeFile(name, root);
    }

    String name() {
        return name;
    }

    /** Every service by name, in file order. */
    Map<String, Map<String, Object>> services() {
        Map<String, Map<String, Object>> services = new LinkedHashMap<>();
        Map<String, Object> all = cast(root.get("services"), Map.class);
        for (Map.Entry<String, Object> e : all.entrySet()) {
            Map<String, Object> service = cast(e.getValue(), Map.class);
            services.put(String.valueOf(e.getKey()), service);
        }
        return services;
    }

    /** The service {@code name}; fails the test when there is none. */
    Map<String, Object> service(String serviceName) {
        Map<String, Object> service = services().get(serviceName);
        assertThat(service).as("service %s of %s", serviceName, name).isNotNull();
        return service;
    }

    /** The names of the services whose image starts with {@code prefix}. */
    List<String> servicesWithImage(String prefix) {
        List<String> names = new ArrayList<>();
        services().forEach((n, s) -> {
            if (String.valueOf(s.get("image")).startsWith(prefix)) {
                names.add(n);
            }
        });
        return names;
    }

    /** The services that compose builds from the Dockerfile at the project root. */
    List<String> servicesBuiltFromTheProject() {
        List<String> names = new ArrayList<>();
        services().forEach((n, s) -> {
            Object build = s.get("build");
            String context = build instanceof Map<?, ?> m ? String.valueOf(m.get("context")) : String.valueOf(build);
            if (build != null && (context.equals(".") || context.equals(DeployAssets.projectRoot().toString()))) {
                names.add(n);
            }
        });
        return names;
    }

    /** The named volumes declared at the top level. */
    Set<String> namedVolumes() {
        Object volumes = root.get("volumes");
        return volumes instanceof Map<?, ?> m ? new LinkedHashSet<>(m.keySet().stream().map(String::valueOf).toList()) : Set.of();
    }

    /** Host path (as written, starting with ./, ../ or /) to container path, for a service's bind mounts. */
    static Map<String, String> bindMounts(Map<String, Object> service) {
        Map<String, String> mounts = new LinkedHashMap<>();
        volumes(service).forEach((source, target) -> {
            if (source.startsWith("./") || source.startsWith("../") || source.startsWith("/")) {
                mounts.put(source.replaceAll("/$", ""), target);
            }
        });
        return mounts;
    }

    /** Source (a named volume or a host path) to container path, for every volume of a service. */
    static Map<String, String> volumes(Map<String, Object> service) {
        Map<String, String> mounts = new LinkedHashMap<>();
        Object volumes = service.get("volumes");
        if (volumes == null) {
            return mounts;
        }
        for (Object volume : (List<?>) volumes) {
            String source;
            String target;
            if (volume instanceof Map<?, ?> longSyntax) {
                source = String.valueOf(longSyntax.get("source"));
                target = String.valueOf(longSyntax.get("target"));
            } else {
                String[] parts = String.valueOf(volume).split(":");
                source = parts[0];
                target = parts.length > 1 ? parts[1] : parts[0];
            }
            mounts.put(source, target);
        }
        return mounts;
    }

    /** A service's environment, in the map or the list form, values as strings. */
    static Map<String, String> environment(Map<String, Object> service) {
        Map<String, String> env = new LinkedHashMap<>();
        Object environment = service.get("environment");
        if (environment instanceof Map<?, ?> m) {
            m.forEach((k, v) -> env.put(String.valueOf(k), String.valueOf(v)));
        } else if (environment instanceof List<?> l) {
            for (Object entry : l) {
                String[] kv = String.valueOf(entry).split("=", 2);
                env.put(kv[0], kv.length > 1 ? kv[1] : "");
            }
        }
        return env;
    }

    /** The services a service depends on, in the list or the map form. */
    static Set<String> dependsOn(Map<String, Object> service) {
        Object dependsOn = service.get("depends_on");
        Set<String> names = new LinkedHashSet<>();
        if (dependsOn instanceof Map<?, ?> m) {
            m.keySet().forEach(k -> names.add(String.valueOf(k)));
        } else if (dependsOn instanceof List<?> l) {
            l.forEach(k -> names.add(String.valueOf(k)));
        }
        return names;
    }

    /** The condition a service waits for on {@code other} (service_started in the list form). */
    static String dependencyCondition(Map<String, Object> service, String other) {
        Object dependsOn = service.get("depends_on");
        if (dependsOn instanceof Map<?, ?> m && m.get(other) instanceof Map<?, ?> entry) {
            return String.valueOf(entry.get("condition"));
        }
        return "service_started";
    }

    /**
     * A service's published ports as {@code [host-ip:]published:target}, from the short form as
     * written or the long form that {@code docker-compose config} prints.
     */
    static List<String> ports(Map<String, Object> service) {
        List<String> ports = new ArrayList<>();
        Object list = service.get("ports");
        if (list == null) {
            return ports;
        }
        for (Object port : (List<?>) list) {
            if (port instanceof Map<?, ?> m) {
                String ip = m.get("host_ip") == null ? "" : m.get("host_ip") + ":";
                ports.add(ip + m.get("published") + ":" + m.get("target"));
            } else {
                ports.add(String.valueOf(port).replaceAll("/tcp$", ""));
            }
        }
        return ports;
    }

    @SuppressWarnings("unchecked")
    private static <T> T cast(Object o, Class<?> type) {
        assertThat(o).isInstanceOf(type);
        return (T) o;
    }
}
