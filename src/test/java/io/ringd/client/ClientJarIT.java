package io.ringd.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import io.ringd.RealServerTest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The client needs nothing of the server: target/ringd-client.jar (built in
 * package) and its dependencies alone ({@link #CLIENT_DEPENDENCIES}), in a
 * JVM of their own, route like the server and follow its change stream. Run
 * by failsafe in verify.
 */
@Timeout(180)
@EnabledIfSystemProperty(named = "ringd.client.jar", matches = ".+",
        disabledReason = "run by failsafe in verify, once package has built the jar (pom.xml sets the property)")
class ClientJarIT extends RealServerTest {

    /**
     * The client's dependencies, as docs/client.md names them and as a project that
     * depends on io.ringd:ringd-client resolves them (src/client/pom.xml declares
     * jackson-databind and jackson-core; jackson-annotations comes with
     * databind; Micrometer is optional): group path and artifact in a Maven
     * repository.
     */
    static final List<String> CLIENT_DEPENDENCIES = List.of(
            "tools/jackson/core/jackson-databind",
            "tools/jackson/core/jackson-core",
            "com/fasterxml/jackson/core/jackson-annotations");

    private static final Path CLIENT_JAR = Paths.get(System.getProperty("ringd.client.jar", "target/ringd-client.jar"));

    @Test
    void theClientJar_holdsTheRingLibraryAndTheClient_andNothingElse() throws IOException {
        assertThat(CLIENT_JAR).as("built by package").exists();
        List<String> names = new ArrayList<>();
        try (ZipFile jar = new ZipFile(CLIENT_JAR.toFile())) {
            jar.stream().map(ZipEntry::getName).forEach(names::add);
        }
        assertThat(names).contains("io/ringd/ring/HashRing.class", "io/ringd/wire/RingJson.class",
                "io/ringd/client/RingClient.class",
                "io/ringd/client/RingClientCli.class", "META-INF/MANIFEST.MF");
        assertThat(names).allMatch(n -> n.startsWith("io/ringd/ring/") || n.startsWith("io/ringd/wire/")
                || n.startsWith("io/ringd/client/") || n.equals("io/") || n.equals("io/ringd/") || n.equals("META-INF/")
                || n.equals("META-INF/MANIFEST.MF"), "only io/ringd/ring/**, io/ringd/wire/**, io/ringd/client/** and the manifest");
    }

    @Test
    void theClientJarAlone_routesLikeTheServer() throws Exception {
        reset();
        long version = putAll("jar-a:1:eu-1a", "jar-b:2:eu-1b", "jar-c:1:eu-1a", "jar-d:0.5", "jar-e:3:eu-1c");
        JsonNode ring = getJson("/ring");
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            keys.add("user:" + i);
        }
        keys.addAll(List.of("ключ", "a b", "a/b;c%2F..", "😀 emoji", "."));

        List<String> routes = run(keys, "--await-version", Long.toString(version));
        assertThat(routes.get(0))
                .isEqualTo("version " + version + " " + ring.get("fingerprint").asString() + " ring default");
        ObjectNode body = JSON.createObjectNode();
        ArrayNode array = body.putArray("keys");
        keys.forEach(array::add);
        JsonNode answer = json(api().contentType("application/json").body(body.toString()).post("/route").asString());
        assertThat(answer.get("version").asLong()).isEqualTo(version);
        List<String> serverRoutes = new ArrayList<>();
        answer.get("routes").forEach(r -> serverRoutes.add(r.get("node").asString()));
        assertThat(routes.subList(1, routes.size())).as("each key's node, as the server routes it")
                .isEqualTo(serverRoutes);

        List<String> keysForPreference = keys.subList(0, 40);
        List<String> preferences = run(keysForPreference, "--preference", "3", "--distinct-zones");
        for (int i = 0; i < keysForPreference.size(); i++) {
            JsonNode p = fastGet("/preference?key=" + form(keysForPreference.get(i)) + "&n=3&distinctZones=true");
            assertThat(preferences.get(i + 1)).as("preference of %s", keysForPreference.get(i))
                    .isEqualTo(String.join(" ", strings(p.get("nodes"))));
        }
    }

    @Test
    void theClientJarAlone_followsTheChangeStream() throws Exception {
        reset();
        putAll("w-a:1:eu-1a", "w-b:1:eu-1b");
        Process p = start(List.of("--watch"));
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String l; (l = r.readLine()) != null;) {
                    lines.add(l);
                }
            } catch (IOException e) {
                // the process ended
            }
        });
        reader.setDaemon(true);
        reader.start();
        try {
            assertThat(lines.poll(60, TimeUnit.SECONDS)).as("the first ring").isEqualTo(versionLine());
            putNode("w-c", 2, "eu-1c");
            batch("[{\"op\":\"remove\",\"id\":\"w-a\"},{\"op\":\"put\",\"id\":\"w-d\",\"weight\":1.5}]");
            assertThat(adminJson("{\"hash\":\"murmur3\",\"vnodesPerWeight\":64}").put("/settings").statusCode())
                    .isEqualTo(200);
            putNode("w-e", 1, null);
            String last = versionLine();
            List<String> seen = new ArrayList<>();
            while (!seen.contains(last)) {
                String l = lines.poll(60, TimeUnit.SECONDS);
                assertThat(l).as("a version line within 60 s; seen %s, waiting for %s", seen, last).isNotNull();
                seen.add(l);
            }
            assertThat(seen).as("one line per version, in order, each verified").hasSize(4);
        } finally {
            p.getOutputStream().close(); // the end of its input ends it
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
        assertThat(p.exitValue()).isZero();
    }

    private String versionLine() {
        JsonNode ring = getJson("/ring");
        return "version " + ring.get("version").asLong() + " " + ring.get("fingerprint").asString() + " ring default";
    }

    /** Runs the client's main class with {@code keys} on its input; its output lines. */
    private List<String> run(List<String> keys, String... options) throws Exception {
        Process p = start(List.of(options));
        try (OutputStream in = p.getOutputStream()) {
            for (String k : keys) {
                in.write((k + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        List<String> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String l; (l = r.readLine()) != null;) {
                out.add(l);
            }
        }
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("exit status; output %s", out).isZero();
        assertThat(out).hasSize(keys.size() + 1);
        return out;
    }

    private Process start(List<String> options) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", clientClassPath(), "io.ringd.client.RingClientCli", "http://127.0.0.1:" + port));
        command.addAll(options);
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().remove("CLASSPATH");
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        return pb.start();
    }

    /** The client jar and its dependencies, found on this JVM's class path by artifact; nothing else. */
    static String clientClassPath() throws Exception {
        List<String> entries = new ArrayList<>();
        entries.add(CLIENT_JAR.toAbsolutePath().toString());
        for (String dependency : CLIENT_DEPENDENCIES) {
            entries.add(buildJar(dependency).toString());
        }
        return String.join(File.pathSeparator, entries);
    }

    /**
     * The jar of {@code dependency} (group path and artifact) on this JVM's class
     * path, in a Maven repository's layout: the one the server builds with.
     */
    static Path buildJar(String dependency) throws Exception {
        String artifact = dependency.substring(dependency.lastIndexOf('/') + 1);
        List<String> found = testClassPath().stream().filter(e -> {
            Path path = Paths.get(e);
            Path versionDir = path.getParent();
            return path.getFileName().toString().startsWith(artifact + "-") && e.endsWith(".jar")
                    && versionDir != null && versionDir.getParent() != null
                    && versionDir.getParent().toString().replace(File.separatorChar, '/').endsWith("/" + dependency);
        }).toList();
        assertThat(found).as("exactly one %s on the test class path", dependency).hasSize(1);
        return Paths.get(found.get(0));
    }

    /** Every jar of this JVM's class path, also when the test runner hides it behind a manifest-only jar. */
    private static Set<String> testClassPath() throws Exception {
        Set<String> entries = new LinkedHashSet<>(List.of(System.getProperty("java.class.path").split(File.pathSeparator)));
        String surefire = System.getProperty("surefire.test.class.path");
        if (surefire != null) {
            entries.addAll(List.of(surefire.split(File.pathSeparator)));
        }
        Enumeration<URL> manifests = ClassLoader.getSystemClassLoader().getResources("META-INF/MANIFEST.MF");
        while (manifests.hasMoreElements()) {
            String url = manifests.nextElement().toString();
            if (url.startsWith("jar:file:")) {
                entries.add(Paths.get(URI.create(url.substring(4, url.indexOf("!/")))).toString());
            }
        }
        entries.removeIf(e -> e.isEmpty() || !Files.isRegularFile(Paths.get(e)));
        return entries;
    }
}
