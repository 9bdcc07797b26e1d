package io.ringd.client;

import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.IOException;
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
 * It waits for a verified ring, prints {@code version <v> <fingerprint>},
 * then reads keys from standard input, one a line (UTF-8), and prints for
 * each the node it routes to ({@code -} on a ring without nodes), or with
 * {@code --preference n} its first n nodes, separated by spaces. Options:
 * {@code --await-version V} waits for version V or later first;
 * {@code --distinct-zones} makes the preference lists zone-aware;
 * {@code --timeout S} bounds each wait (default 30 s; exit status 1 when it
 * runs out); {@code --watch} prints one {@code version} line per verified
 * ring instead, until the input ends.
 */
public final class RingClientCli {

    private RingClientCli() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        System.exit(run(args));
    }

    static int run(String[] args) throws IOException, InterruptedException {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        if (args.length < 1 || args[0].startsWith("-")) {
            return usage("a base URL is needed");
        }
        long awaitVersion = 0;
        int preference = 0;
        boolean zones = false;
        boolean watch = false;
        Duration timeout = Duration.ofSeconds(30);
        try {
            for (int i = 1; i < args.length; i++) {
                switch (args[i]) {
                    case "--await-version" -> awaitVersion = Long.parseLong(args[++i]);
                    case "--preference" -> preference = Integer.parseInt(args[++i]);
                    case "--distinct-zones" -> zones = true;
                    case "--timeout" -> timeout = Duration.ofSeconds(Long.parseLong(args[++i]));
                    case "--watch" -> watch = true;
                    default -> {
                        return usage("unknown option " + args[i]);
                    }
                }
            }
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            return usage("an option lacks its number");
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        RingClientBuilder builder = RingClient.builder(args[0]);
        if (watch) {
            builder.listener((previous, current) -> printVersion(out, current));
        }
        try (RingClient client = builder.build()) {
            if (!client.awaitVersion(awaitVersion, timeout)) {
                System.err.println("no verified ring at version " + awaitVersion + " or later from " + args[0]
                        + " within " + timeout.toSeconds() + " s (" + client + ")");
                return 1;
            }
            if (watch) {
                while (in.readLine() != null) {
                    // follow until the input ends
                }
                return 0;
            }
            HashRing ring = client.ring(); // one version for every key
            printVersion(out, ring);
            for (String key; (key = in.readLine()) != null;) {
                try {
                    out.println(preference > 0 ? String.join(" ", ring.preference(key, preference, zones))
                            : ring.route(key));
                } catch (RingException.NoNodes e) {
                    out.println("-");
                }
            }
        }
        return 0;
    }

    private static void printVersion(PrintStream out, HashRing ring) {
        out.println("version " + ring.version() + " " + ring.fingerprint());
    }

    private static int usage(String problem) {
        System.err.println(problem);
        System.err.println("usage: java -cp ringd-client.jar:<dependencies> io.ringd.client.RingClientCli <base-url>"
                + " [--await-version V] [--preference N] [--distinct-zones] [--timeout S] [--watch] < keys");
        return 2;
    }
}
