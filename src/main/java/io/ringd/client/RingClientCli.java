package io.ringd.client;

import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.ringd.ring.HashRing;
import io.ringd.ring.RingException;

/**
 * Routes keys with a {@link RingClient}, from the command line:
 *
 * <pre>
 * java -cp ringd-client.jar:&lt;its dependencies&gt; io.ringd.client.RingClientCli http://localhost:8080 [options] &lt; keys
 * </pre>
 *
 * It waits for a verified ring, prints {@code version <v> <fingerprint> ring <name>},
 * then reads keys from standard input, one a line (UTF-8), and prints for
 * each the node it routes to ({@code -} on a ring without nodes), or with
 * {@code --preference n} its first n nodes, separated by spaces. Options:
 * {@code --ring NAME} follows the ring NAME (docs/ring.md section 22; default
 * {@code default}); {@code --await-version V} waits for version V or later first;
 * {@code --distinct-zones} makes the preference lists zone-aware;
 * {@code --timeout S} bounds each wait (default 30 s; exit status 1 when it
 * runs out, or at once when the server has no ring of that name); {@code --watch} prints one
 * {@code version} line per verified ring instead, a version that is a step of a planned change
 * (docs/ring.md section 24) followed by {@code plan <id> step <k> of <n>}, and
 * {@code gone ring <name>} when the ring is deleted, until the input ends. As every client, it reports to the server as a follower
 * (docs/ring.md section 23) and says as whom on standard error at start,
 * {@code follower <id>}: {@code --follower-id ID} names it (default: host, process id and a
 * random suffix), {@code --no-reports} turns reports off.
 */
public final class RingClientCli {

    private RingClientCli() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        System.exit(run(args));
    }

    static int run(String[] args) throws IOException, InterruptedException {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        return run(args, System.in, out, System.err);
    }

    /** {@link #main} with its streams given: what it exits with. */
    static int run(String[] args, InputStream input, PrintStream out, PrintStream err)
            throws IOException, InterruptedException {
        if (args.length < 1 || args[0].startsWith("-")) {
            return usage(err, "a base URL is needed");
        }
        long awaitVersion = 0;
        int preference = 0;
        boolean zones = false;
        boolean watch = false;
        String ring = null;
        String followerId = null;
        boolean reports = true;
        Duration timeout = Duration.ofSeconds(30);
        try {
            for (int i = 1; i < args.length; i++) {
                switch (args[i]) {
                    case "--await-version" -> awaitVersion = Long.parseLong(args[++i]);
                    case "--preference" -> preference = Integer.parseInt(args[++i]);
                    case "--distinct-zones" -> zones = true;
                    case "--timeout" -> timeout = Duration.ofSeconds(Long.parseLong(args[++i]));
                    case "--watch" -> watch = true;
                    case "--ring" -> ring = args[++i];
                    case "--follower-id" -> followerId = args[++i];
                    case "--no-reports" -> reports = false;
                    default -> {
                        return usage(err, "unknown option " + args[i]);
                    }
                }
            }
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            return usage(err, "an option lacks its value");
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8));
        RingClientBuilder builder;
        try {
            builder = RingClient.builder(args[0]);
            if (ring != null) {
                builder.ring(ring);
            }
            if (followerId != null) {
                builder.followerId(followerId);
            }
            builder.reports(reports);
        } catch (IllegalArgumentException e) {
            return usage(err, e.getMessage());
        }
        String name = ring == null ? RingClientBuilder.DEFAULT_RING : ring;
        if (watch) {
            builder.listener(new RingClient.Listener() {
                @Override
                public void ringChanged(HashRing previous, HashRing current) {
                    // not called: ringUpdated is
                }

                @Override
                public void ringUpdated(RingUpdate update) {
                    PlanStep step = update.planStep();
                    out.println(versionLine(update.current(), name) + (step == null ? ""
                            : " plan " + step.id() + " step " + step.step() + " of " + step.of()));
                }

                @Override
                public void ringGone(String ringName, HashRing last) {
                    out.println("gone ring " + ringName);
                }
            });
        }
        try (RingClient client = builder.build()) {
            err.println("follower " + client.followerId() + (reports ? "" : " (reports off)"));
            boolean reached = client.awaitVersion(awaitVersion, timeout); // false at once if the ring is gone
            if (!reached && client.isGone() && !watch) {
                err.println("the ring " + name + " does not exist on " + args[0]
                        + ": it was deleted, or never made (GET /rings lists them)");
                return 1;
            }
            if (!reached && !client.isGone()) { // --watch goes on following a ring that is gone: it may be made
                err.println("no verified ring at version " + awaitVersion + " or later from " + args[0]
                        + " within " + timeout.toSeconds() + " s (" + client + ")");
                return 1;
            }
            if (watch) {
                while (in.readLine() != null) {
                    // follow until the input ends
                }
                return 0;
            }
            HashRing held;
            try {
                held = client.ring(); // one version for every key
            } catch (RingGoneException e) { // deleted just now
                err.println(e.getMessage());
                return 1;
            }
            printVersion(out, held, name);
            for (String key; (key = in.readLine()) != null;) {
                try {
                    out.println(preference > 0 ? String.join(" ", held.preference(key, preference, zones))
                            : held.route(key));
                } catch (RingException.NoNodes e) {
                    out.println("-");
                }
            }
        }
        return 0;
    }

    private static void printVersion(PrintStream out, HashRing ring, String name) {
        out.println(versionLine(ring, name));
    }

    private static String versionLine(HashRing ring, String name) {
        return "version " + ring.version() + " " + ring.fingerprint() + " ring " + name;
    }

    private static int usage(PrintStream err, String problem) {
        err.println(problem);
        err.println("usage: java -cp ringd-client.jar:<dependencies> io.ringd.client.RingClientCli <base-url>"
                + " [--ring NAME] [--await-version V] [--preference N] [--distinct-zones] [--timeout S] [--watch]"
                + " [--follower-id ID] [--no-reports] < keys");
        return 2;
    }
}
