package io.ringd;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real jar, {@code target/ringd.jar}, run as a process of its own on a
 * data folder and a free port (the server picks it: {@code --server.port=0},
 * read back from its log), with the admin token in {@code RINGD_ADMIN_TOKEN}.
 * Its output is read through a pipe, so the process writes no file of its own
 * but its state.
 */
public final class RingdProcess implements AutoCloseable {

    /** SIGKILL's exit status as the JDK reports it on Linux: 128 + 9. */
    public static final int KILLED = 137;

    /** Options for a quicker start of the child JVM only (C1 alone); the product's defaults are untouched. */
    public static final List<String> QUICK_JVM = List.of("-XX:TieredStopAtLevel=1", "-Xmx256m", "-XX:+UseSerialGC");

    private static final Pattern STARTED = Pattern.compile("Jetty started on port (\\d+)");
    private static final int KEPT_LOG = 1 << 20;

    private final Process process;
    private final StringBuilder log = new StringBuilder();
    private final CompletableFuture<Integer> port = new CompletableFuture<>();

    private RingdProcess(Process process) {
        this.process = process;
        Thread reader = new Thread(this::read, "ringd-" + process.pid() + "-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** The jar failsafe names ({@code -Dringd.jar}), else target/ringd.jar. */
    public static Path jar() {
        return Paths.get(System.getProperty("ringd.jar", "target/ringd.jar")).toAbsolutePath();
    }

    /**
     * Starts the jar. {@code jvmOptions} go before {@code -jar}, {@code args}
     * after it (with the port and the data folder).
     */
    public static RingdProcess start(Path dataDir, String token, List<String> jvmOptions, List<String> args)
            throws IOException {
        return start(List.of(), dataDir, token, jvmOptions, args);
    }

    /**
     * Starts the jar under a POSIX shell that first lowers the size any file
     * of the process may grow to ({@code ulimit -f}, in 512-byte blocks):
     * past it, a write fails with EFBIG, as on a full disk (the JVM ignores
     * SIGXFSZ).
     */
    public static RingdProcess startWithFileSizeLimit(long blocks, Path dataDir, String token,
            List<String> jvmOptions, List<String> args) throws IOException {
        return start(List.of("sh", "-c", "ulimit -f " + blocks + " && exec \"$0\" \"$@\""), dataDir, token,
                jvmOptions, args);
    }

    private static RingdProcess start(List<String> prefix, Path dataDir, String token, List<String> jvmOptions,
            List<String> args) throws IOException {
        List<String> command = new ArrayList<>(prefix);
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar().toString(), "--server.port=0", "--server.address=127.0.0.1",
                "--ringd.data-dir=" + dataDir.toAbsolutePath(), "--spring.main.banner-mode=off"));
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        pb.environment().remove("CLASSPATH");
        pb.environment().put("RINGD_ADMIN_TOKEN", token);
        return new RingdProcess(pb.start());
    }

    private void read() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null;) {
                synchronized (log) {
                    if (log.length() > KEPT_LOG) {
                        log.delete(0, log.length() - KEPT_LOG / 2);
                    }
                    log.append(line).append('\n');
                }
                Matcher m = STARTED.matcher(line);
                if (m.find()) {
                    port.complete(Integer.parseInt(m.group(1)));
                }
            }
        } catch (IOException e) {
            // the process ended
        } finally {
            port.completeExceptionally(new IllegalStateException("ringd ended before it started serving"));
        }
    }

    /**
     * Waits until the server listens; its port.
     *
     * @throws IllegalStateException with the log if it ended or did not start in time
     */
    public int awaitStarted(long seconds) throws InterruptedException {
        try {
            return port.get(seconds, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException("ringd did not start within " + seconds + " s:\n" + log(), e);
        } catch (java.util.concurrent.ExecutionException e) {
            process.waitFor(10, TimeUnit.SECONDS);
            throw new IllegalStateException("ringd did not start (exit " + (process.isAlive() ? "-" : process.exitValue())
                    + "):\n" + log(), e);
        }
    }

    /** Waits for the process to end by itself; its exit status. */
    public int awaitExit(long seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            throw new IllegalStateException("ringd still runs after " + seconds + " s:\n" + log());
        }
        return process.exitValue();
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Kills the process with SIGKILL (what {@link Process#destroyForcibly()} sends on Linux); its exit status. */
    public int kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("ringd " + pid() + " survived SIGKILL");
        }
        return process.exitValue();
    }

    public String log() {
        synchronized (log) {
            return log.toString();
        }
    }

    /** Stops the process (SIGTERM, then SIGKILL after 20 s) if it still runs. */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                kill();
            }
        }
    }
}
