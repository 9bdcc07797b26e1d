package io.ringd.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/** Runs a program for the deployment tests, in the project root, with a bounded wait. */
final class Commands {

    static final long TIMEOUT_SECONDS = 120;

    private Commands() {
    }

    /** What a program did: its command line, exit code, and standard output and error together. */
    record Result(List<String> command, int exitCode, String output) {
    }

    /**
     * Runs {@code command} in the project root with {@code env} added to this process's
     * environment and the variables in {@code unset} removed; fails the test when it does not
     * finish within {@link #TIMEOUT_SECONDS}.
     */
    static Result run(List<String> command, Map<String, String> env, Set<String> unset) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).directory(DeployAssets.projectRoot().toFile())
                .redirectErrorStream(true);
        builder.environment().keySet().removeAll(unset);
        builder.environment().putAll(env);
        Path log = Files.createTempFile("deploy-tool", ".log");
        try {
            builder.redirectOutput(log.toFile());
            Process process = builder.start();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                fail(String.join(" ", command) + " did not finish within " + TIMEOUT_SECONDS + " s:\n" + Files.readString(log));
            }
            return new Result(command, process.exitValue(), Files.readString(log));
        } finally {
            Files.deleteIfExists(log);
        }
    }

    static void expectSuccess(Result result) {
        assertThat(result.exitCode()).as("exit code of `%s`; its output:%n%s", String.join(" ", result.command()), result.output())
                .isZero();
    }

    /** Whether an executable file named {@code program} is in a folder of the PATH. */
    static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(Pattern.quote(File.pathSeparator))) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }
}
