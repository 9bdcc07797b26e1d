package io.ringd.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import io.ringd.RealServerTest;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * io.ringd:ringd-client can be depended on: the client artifact that
 * {@code ./mvnw install} installs (pom.xml's install-file execution, run
 * here into a repository of its own), declared alone by a project of its
 * own, gives that project the ring library, the client and exactly their
 * dependencies, in the versions the server builds with, and their sources
 * and javadoc. The project compiles against them and runs: the library
 * routes as it does here, and the client follows this server and routes as
 * it does. Java and the project's own Maven wrapper alone; third-party
 * artifacts come from the build's local repository, read-only (Maven's
 * local repository tail; one missing there is downloaded into the
 * repository made here), and ringd-client only from the repository made
 * here. Run by failsafe in verify, once package has built the client's files.
 */
@Timeout(300)
@EnabledIfSystemProperty(named = "ringd.client.jar", matches = ".+",
        disabledReason = "run by failsafe in verify, once package has built the jar (pom.xml sets the property)")
class ClientArtifactIT extends RealServerTest {

    private static final Path BASEDIR = Paths.get(System.getProperty("ringd.basedir", ".")).toAbsolutePath();
    private static final String VERSION = System.getProperty("ringd.version");
    private static final Path WORK = BASEDIR.resolve("target/client-artifact-it");

    /** The ring the consumer builds with the library alone, and the key it routes (as CONSUMER_MAIN writes them). */
    private static final RingConfig CONSUMER_CONFIG = RingConfig.of("murmur3", 64);
    private static final List<Node> CONSUMER_NODES = List.of(new Node("a", 1, "z1"), new Node("b", 2, "z2"),
            Node.of("c", 0.5));
    private static final String CONSUMER_KEY = "user:42";

    private static final String CONSUMER_MAIN = """
            package consumer;

            import java.time.Duration;
            import java.util.Arrays;
            import java.util.List;

            import io.ringd.client.RingClient;
            import io.ringd.ring.HashRing;
            import io.ringd.ring.Node;
            import io.ringd.ring.RingConfig;

            /** Routes with the library alone, then with a client of the server at args[0]: each key of args[1..]. */
            public final class Main {
                public static void main(String[] args) throws Exception {
                    HashRing ring = HashRing.of(RingConfig.of("murmur3", 64), 1,
                            List.of(new Node("a", 1, "z1"), new Node("b", 2, "z2"), Node.of("c", 0.5)));
                    System.out.println("library " + ring.route("user:42") + " " + ring.fingerprint());
                    try (RingClient client = RingClient.builder(args[0]).build()) {
                        if (!client.awaitReady(Duration.ofSeconds(60))) {
                            throw new IllegalStateException("no verified ring within 60 s");
                        }
                        HashRing held = client.ring();
                        System.out.println("client " + held.version() + " " + held.fingerprint());
                        for (String key : Arrays.asList(args).subList(1, args.length)) {
                            System.out.println(held.route(key));
                        }
                    }
                }
            }
            """;

    @Test
    void aProjectThatDeclaresOnlyRingdClient_getsTheLibraryTheClientAndTheirDependencies() throws Exception {
        assertThat(VERSION).as("ringd.version, set by pom.xml").isNotBlank();
        deleteRecursively(WORK);
        Path repository = WORK.resolve("repository");
        Path consumer = WORK.resolve("consumer");

        // What ./mvnw install does for the client, into a repository of its own.
        maven(BASEDIR, WORK.resolve("install.log"), "install:install-file@ringd-client",
                "-DlocalRepositoryPath=" + repository);
        Path installed = repository.resolve("io/ringd/ringd-client/" + VERSION);
        assertThat(installed.resolve("ringd-client-" + VERSION + ".jar")).exists();
        Path installedPom = installed.resolve("ringd-client-" + VERSION + ".pom");
        assertThat(installedPom).exists();

        Files.createDirectories(consumer.resolve("src/main/java/consumer"));
        Files.writeString(consumer.resolve("pom.xml"), consumerPom());
        Files.writeString(consumer.resolve("src/main/java/consumer/Main.java"), CONSUMER_MAIN);
        maven(consumer, WORK.resolve("consumer.log"), "compile",
                "-Dmaven.repo.local=" + repository, "-Dmaven.repo.local.tail=" + localRepository());

        // Exactly the client and its dependencies, as the server builds with them; nothing of Spring or the server.
        List<String> expected = new ArrayList<>();
        expected.add("io.ringd:ringd-client:jar:" + VERSION + ":compile");
        for (String dependency : ClientJarIT.CLIENT_DEPENDENCIES) {
            expected.add(coordinate(dependency) + ":jar:" + buildVersion(dependency) + ":compile");
        }
        assertThat(resolved(consumer.resolve("target/dependencies.txt"))).as("the consumer's dependencies")
                .containsExactlyInAnyOrderElementsOf(expected);
        List<Path> classPath = Arrays.stream(Files.readString(consumer.resolve("target/classpath.txt")).strip()
                .split(java.io.File.pathSeparator)).map(Paths::get).toList();
        assertThat(classPath).as("the consumer's class path").hasSize(expected.size())
                .contains(installed.resolve("ringd-client-" + VERSION + ".jar"))
                .allSatisfy(p -> assertThat(p.getFileName().toString()).doesNotContainIgnoringCase("spring")
                        .doesNotStartWith("ringd-" + VERSION));

        // Micrometer is declared, optional, in the version the server builds with.
        Element micrometer = declaredDependency(installedPom, "io.micrometer", "micrometer-core");
        assertThat(text(micrometer, "optional")).isEqualTo("true");
        assertThat(text(micrometer, "version")).isEqualTo(buildVersion("io/micrometer/micrometer-core"));

        // Sources and javadoc, resolved by the consumer as an IDE asks for them: the same packages.
        assertThat(entries(consumer.resolve("target/docs/ringd-client-" + VERSION + "-sources.jar")))
                .contains("io/ringd/ring/HashRing.java", "io/ringd/client/RingClient.java")
                .allMatch(n -> n.startsWith("META-INF/") || n.equals("io/") || n.equals("io/ringd/")
                        || n.matches("io/ringd/(ring|wire|client)/.*"), "only the client's packages");
        assertThat(entries(consumer.resolve("target/docs/ringd-client-" + VERSION + "-javadoc.jar")))
                .contains("index.html", "io/ringd/ring/HashRing.html", "io/ringd/client/RingClient.html")
                .noneMatch(n -> n.startsWith("io/ringd/") && !n.matches("io/ringd/(ring|wire|client)/.*")
                        && !n.equals("io/ringd/"), "only the client's packages");

        // It runs: the library as here, the client as this server.
        reset();
        long version = putAll("art-a:1:eu-1a", "art-b:2:eu-1b", "art-c:0.5");
        List<String> keys = List.of("user:1", "user:2", "ключ", "😀", "a/b");
        List<String> out = run(consumer, classPath, keys);
        HashRing library = HashRing.of(CONSUMER_CONFIG, 1, CONSUMER_NODES);
        assertThat(out.get(0)).as("the library in the consumer")
                .isEqualTo("library " + library.route(CONSUMER_KEY) + " " + library.fingerprint());
        JsonNode ring = getJson("/ring");
        assertThat(ring.get("version").asLong()).isEqualTo(version);
        assertThat(out.get(1)).as("the client's ring").isEqualTo("client " + version + " " + ring.get("fingerprint").asString());
        ObjectNode body = JSON.createObjectNode();
        ArrayNode array = body.putArray("keys");
        keys.forEach(array::add);
        JsonNode answer = json(api().contentType("application/json").body(body.toString()).post("/route").asString());
        List<String> serverRoutes = new ArrayList<>();
        answer.get("routes").forEach(r -> serverRoutes.add(r.get("node").asString()));
        assertThat(out.subList(2, out.size())).as("each key's node, as the server routes it").isEqualTo(serverRoutes);
    }

    /**
     * The consumer: one dependency. Its plugins are the versions this build
     * uses, so the build's local repository has them; the dependency
     * plugin's executions write what the test reads (the resolved list, the
     * class path, and the client's sources and javadoc).
     */
    private static String consumerPom() {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>consumer</groupId>
                  <artifactId>consumer</artifactId>
                  <version>1</version>
                  <properties>
                    <maven.compiler.release>17</maven.compiler.release>
                    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
                  </properties>
                  <dependencies>
                    <dependency>
                      <groupId>io.ringd</groupId>
                      <artifactId>ringd-client</artifactId>
                      <version>%1$s</version>
                    </dependency>
                  </dependencies>
                  <build>
                    <pluginManagement>
                      <plugins>
                        <plugin>
                          <artifactId>maven-resources-plugin</artifactId>
                          <version>%2$s</version>
                        </plugin>
                        <plugin>
                          <artifactId>maven-compiler-plugin</artifactId>
                          <version>%3$s</version>
                        </plugin>
                      </plugins>
                    </pluginManagement>
                    <plugins>
                      <plugin>
                        <artifactId>maven-dependency-plugin</artifactId>
                        <version>%4$s</version>
                        <executions>
                          <execution>
                            <id>list</id>
                            <phase>compile</phase>
                            <goals><goal>list</goal></goals>
                            <configuration><outputFile>${project.build.directory}/dependencies.txt</outputFile></configuration>
                          </execution>
                          <execution>
                            <id>class-path</id>
                            <phase>compile</phase>
                            <goals><goal>build-classpath</goal></goals>
                            <configuration><outputFile>${project.build.directory}/classpath.txt</outputFile></configuration>
                          </execution>
                          <execution>
                            <id>docs</id>
                            <phase>compile</phase>
                            <goals><goal>copy</goal></goals>
                            <configuration>
                              <outputDirectory>${project.build.directory}/docs</outputDirectory>
                              <artifactItems>
                                <artifactItem>
                                  <groupId>io.ringd</groupId><artifactId>ringd-client</artifactId>
                                  <version>%1$s</version><classifier>sources</classifier>
                                </artifactItem>
                                <artifactItem>
                                  <groupId>io.ringd</groupId><artifactId>ringd-client</artifactId>
                                  <version>%1$s</version><classifier>javadoc</classifier>
                                </artifactItem>
                              </artifactItems>
                            </configuration>
                          </execution>
                        </executions>
                      </plugin>
                    </plugins>
                  </build>
                </project>
                """.formatted(VERSION, System.getProperty("ringd.maven.resources-plugin.version"),
                System.getProperty("ringd.maven.compiler-plugin.version"),
                System.getProperty("ringd.maven.dependency-plugin.version"));
    }

    /** Runs the project's Maven wrapper in {@code dir} with this JVM's Java; fails with its log unless it succeeds. */
    private static void maven(Path dir, Path log, String... arguments) throws Exception {
        boolean windows = System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("windows");
        List<String> command = new ArrayList<>(List.of(BASEDIR.resolve(windows ? "mvnw.cmd" : "mvnw").toString(),
                "-B", "-ntp", "-Dmaven.repo.local=" + localRepository()));
        command.addAll(List.of(arguments)); // a later -Dmaven.repo.local wins
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        // A short build: the JIT's first tier only and one GC thread halve its CPU time. The caller's options win.
        pb.environment().merge("MAVEN_OPTS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC", (caller, ours) -> ours + " " + caller);
        pb.environment().remove("CLASSPATH");
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        Files.createDirectories(log.getParent());
        Process p = pb.start();
        if (!p.waitFor(240, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        assertThat(p.isAlive() ? -1 : p.exitValue()).as("%s in %s:%n%s", command, dir, Files.readString(log))
                .isZero();
    }

    /** The consumer's main class on its class path, with this JVM's Java; its output lines. */
    private List<String> run(Path consumer, List<Path> classPath, List<String> keys) throws Exception {
        List<String> entries = new ArrayList<>();
        entries.add(consumer.resolve("target/classes").toString());
        classPath.forEach(p -> entries.add(p.toString()));
        List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", String.join(java.io.File.pathSeparator, entries), "consumer.Main", "http://127.0.0.1:" + port));
        command.addAll(keys);
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().remove("CLASSPATH");
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        Process p = pb.start();
        List<String> out;
        try (InputStream in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
        assertThat(p.waitFor(90, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("exit status; output %s", out).isZero();
        assertThat(out).hasSize(keys.size() + 2);
        return out;
    }

    /** The local repository this build uses, where the third-party artifacts are. */
    private static String localRepository() {
        String repository = System.getProperty("ringd.maven.repository");
        assertThat(repository).as("ringd.maven.repository, set by pom.xml").isNotBlank();
        return repository;
    }

    /** "group.id:artifact" of a "group/path/artifact" of {@link ClientJarIT#CLIENT_DEPENDENCIES}. */
    private static String coordinate(String dependency) {
        int slash = dependency.lastIndexOf('/');
        return dependency.substring(0, slash).replace('/', '.') + ":" + dependency.substring(slash + 1);
    }

    /** The version of a dependency the server builds with: its jar's version directory on this JVM's class path. */
    private static String buildVersion(String dependency) throws Exception {
        return ClientJarIT.buildJar(dependency).getParent().getFileName().toString();
    }

    /** "group:artifact:type:version:scope" of each line of dependency:list's file. */
    private static Set<String> resolved(Path list) throws IOException {
        return Files.readAllLines(list).stream().map(String::strip).filter(l -> l.matches("[^\\s:]+(:[^\\s:]+){4}.*"))
                .map(l -> l.split("\\s")[0]).collect(Collectors.toCollection(TreeSet::new));
    }

    private static Element declaredDependency(Path pom, String groupId, String artifactId) throws Exception {
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
        NodeList dependencies = doc.getElementsByTagName("dependency");
        for (int i = 0; i < dependencies.getLength(); i++) {
            Element d = (Element) dependencies.item(i);
            if (groupId.equals(text(d, "groupId")) && artifactId.equals(text(d, "artifactId"))) {
                return d;
            }
        }
        throw new AssertionError(pom + " declares no " + groupId + ":" + artifactId);
    }

    private static String text(Element e, String child) {
        NodeList children = e.getElementsByTagName(child);
        return children.getLength() == 0 ? null : children.item(0).getTextContent().strip();
    }

    private static List<String> entries(Path jar) throws IOException {
        assertThat(jar).exists();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            return zip.stream().map(ZipEntry::getName).toList();
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
