package io.ringd.interop;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The two memcached clients that are not Java, each driven by a script of src/test/interop:
 * pylibmc (libmemcached) under Debian's {@code /usr/bin/python3}, and the npm {@code memcached}
 * package under {@code /usr/bin/node}, installed by {@code npm ci} from the committed
 * package-lock.json into target/interop-node (never into the source tree). Each run is bounded
 * in time; a missing tool fails the test, naming its Debian package.
 */
final class ClientScripts {

    static final Path SCRIPTS = Path.of("src/test/interop").toAbsolutePath();
    static final Path PYTHON = Path.of(System.getProperty("ringd.python", "/usr/bin/python3"));
    static final Path NODE = Path.of(System.getProperty("ringd.node", "/usr/bin/node"));
    static final Path NPM = Path.of(System.getProperty("ringd.npm", "/usr/bin/npm"));
    static final Path NODE_HOME = Path.of("target/interop-node").toAbsolutePath();
    static final long RUN_SECONDS = 60;
    static final long NPM_CI_SECONDS = 180;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ClientScripts() {
    }

    /** Fails unless /usr/bin/python3 imports pylibmc. */
    static void requirePylibmc() {
        if (!Files.isExecutable(PYTHON)) {
            fail("python3 is not at " + PYTHON + ": install it (Debian package python3; .ci/run installs it)");
        }
        Result r = run(List.of(PYTHON.toString(), "-c", "import pylibmc; print(pylibmc.__version__)"), Map.of(), 30);
        if (r.exit() != 0) {
            fail(PYTHON + " cannot import pylibmc: install it (Debian package python3-pylibmc: apt-get install "
                    + "python3-pylibmc; .ci/run installs it); its output: " + r.output().strip());
        }
    }

    /** Fails unless node and npm are there; then makes target/interop-node/node_modules from the lock file (once). */
    static void requireNodeClient() {
        if (!Files.isExecutable(NODE)) {
            fail("node is not at " + NODE + ": install it (Debian package nodejs: apt-get install nodejs; "
                    + ".ci/run installs it)");
        }
        if (!Files.isExecutable(NPM)) {
            fail("npm is not at " + NPM + ": install it (Debian package npm: apt-get install npm; .ci/run installs it)");
        }
        try {
            Path lock = SCRIPTS.resolve("package-lock.json");
            Path installedLock = NODE_HOME.resolve("package-lock.json");
            if (Files.isRegularFile(NODE_HOME.resolve("node_modules/memcached/package.json"))
                    && Files.isRegularFile(installedLock) && Arrays.equals(Files.readAllBytes(lock),
                            Files.readAllBytes(installedLock))) {
                return; // installed from this very lock file
            }
            Files.createDirectories(NODE_HOME);
            Files.copy(SCRIPTS.resolve("package.json"), NODE_HOME.resolve("package.json"),
                    StandardCopyOption.REPLACE_EXISTING);
            Files.copy(lock, installedLock, StandardCopyOption.REPLACE_EXISTING);
            Result r = run(List.of(NPM.toString(), "ci", "--no-audit", "--no-fund", "--prefer-offline"), Map.of(),
                    NPM_CI_SECONDS, NODE_HOME);
            if (r.exit() != 0) {
                fail("npm ci in " + NODE_HOME + " failed (exit " + r.exit() + "): " + r.output().strip());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs pylibmc_client.py with {@code request}; its JSON answer. */
    static JsonNode pylibmc(ObjectNode request) {
        return script(List.of(PYTHON.toString(), SCRIPTS.resolve("pylibmc_client.py").toString()), Map.of(), request);
    }

    /** Runs memcached_client.js with {@code request}; its JSON answer. */
    static JsonNode npmMemcached(ObjectNode request) {
        return script(List.of(NODE.toString(), SCRIPTS.resolve("memcached_client.js").toString()),
                Map.of("NODE_PATH", NODE_HOME.resolve("node_modules").toString()), request);
    }

    private static JsonNode script(List<String> command, Map<String, String> env, ObjectNode request) {
        Path file = null;
        try {
            file = Files.createTempFile("interop-request", ".json");
            Files.writeString(file, request.toString(), StandardCharsets.UTF_8);
            List<String> full = new ArrayList<>(command);
            full.add(file.toString());
            Result r = run(full, env, RUN_SECONDS);
            if (r.exit() != 0) {
                fail(String.join(" ", command) + " failed (exit " + r.exit() + "): " + r.output().strip());
            }
            return JSON.readTree(r.stdout());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException ignored) {
                    // a temporary file
                }
            }
        }
    }

    record Result(int exit, String stdout, String output) {
    }

    private static Result run(List<String> command, Map<String, String> env, long seconds) {
        return run(command, env, seconds, SCRIPTS);
    }

    /** Runs {@code command} in {@code dir}; fails the test when it takes longer than {@code seconds}. */
    private static Result run(List<String> command, Map<String, String> env, long seconds, Path dir) {
        Path out = null;
        Path err = null;
        try {
            out = Files.createTempFile("interop-out", ".txt");
            err = Files.createTempFile("interop-err", ".txt");
            ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile());
            builder.environment().putAll(env);
            Process process = builder.start();
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                fail(String.join(" ", command) + " did not finish within " + seconds + " s: " + Files.readString(err));
            }
            String stdout = Files.readString(out, StandardCharsets.UTF_8);
            String stderr = Files.readString(err, StandardCharsets.UTF_8);
            return new Result(process.exitValue(), stdout, stderr + stdout);
        } catch (IOException e) {
            throw new UncheckedIOException("could not run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            for (Path p : new Path[] {out, err}) {
                if (p != null) {
                    try {
                        Files.deleteIfExists(p);
                    } catch (IOException ignored) {
                        // a temporary file
                    }
                }
            }
        }
    }
}
