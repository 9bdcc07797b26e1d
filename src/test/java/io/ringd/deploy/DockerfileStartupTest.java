package io.ringd.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The container image's start-up settings, checked statically (no Docker
 * engine is needed): the jar is extracted for class data sharing, a
 * training run makes the JDK 25 AOT cache (an AppCDS archive on a JDK
 * without one), and the ENTRYPOINT names whichever was made.
 */
class DockerfileStartupTest {

    @Test
    void runStageTrainsAnAotCacheAndTheEntrypointUsesIt() {
        List<String> instructions = DeployAssets.dockerfileInstructions();
        String all = String.join("\n", instructions);
        assertThat(all).contains("java -Djarmode=tools -jar target/ringd.jar extract --destination /build/app");
        int lastFrom = -1;
        for (int i = 0; i < instructions.size(); i++) {
            if (instructions.get(i).startsWith("FROM")) {
                lastFrom = i;
            }
        }
        List<String> run = instructions.subList(lastFrom, instructions.size());
        assertThat(run).anySatisfy(i -> assertThat(i).startsWith("COPY --from=build /build/app/ /app/"));
        String training = run.stream().filter(i -> i.startsWith("RUN") && i.contains("AOTCacheOutput"))
                .findFirst().orElseThrow(() -> new AssertionError("no AOT training run in the run stage"));
        assertThat(training)
                .contains("-XX:AOTCacheOutput=/app/ringd.aot")
                .contains("-Dspring.context.exit=onRefresh")
                .contains("--ringd.store=memory")
                .contains("echo \"-XX:AOTCache=/app/ringd.aot\" >/app/jvm.args")
                .contains("-XX:ArchiveClassesAtExit=/app/ringd.jsa")
                .contains("echo \"-XX:SharedArchiveFile=/app/ringd.jsa\" >/app/jvm.args");
        // trained as root before the image switches user, so the cache is part of the image
        int user = indexOf(run, "USER");
        assertThat(run.indexOf(training)).isLessThan(user);
        String entrypoint = run.get(indexOf(run, "ENTRYPOINT"));
        assertThat(entrypoint).contains("\"java\", \"@/app/jvm.args\", \"-jar\", \"/app/ringd.jar\"");
    }

    private static int indexOf(List<String> instructions, String keyword) {
        for (int i = instructions.size() - 1; i >= 0; i--) {
            if (instructions.get(i).startsWith(keyword)) {
                return i;
            }
        }
        throw new AssertionError("no " + keyword);
    }
}
