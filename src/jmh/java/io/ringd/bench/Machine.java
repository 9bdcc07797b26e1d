package io.ringd.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The machine a report ran on, as {@code nproc}, {@code /proc/cpuinfo},
 * {@code /proc/meminfo} and {@code java -version} tell it, and the commit
 * of the working tree (read-only git).
 */
record Machine(String nproc, String cpu, String memory, List<String> javaVersion, String commit) {

    static Machine here() {
        String nproc = firstLine(run("nproc"));
        if (nproc.isEmpty()) {
            nproc = String.valueOf(Runtime.getRuntime().availableProcessors());
        }
        String cpu = procField("/proc/cpuinfo", "model name");
        String mem = procField("/proc/meminfo", "MemTotal");
        if (mem.endsWith(" kB")) {
            long kb = Long.parseLong(mem.substring(0, mem.length() - 3).trim());
            mem = Report.f("%.0f GiB", kb / (1024.0 * 1024.0));
        }
        List<String> java = run(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-version");
        String commit = firstLine(run("git", "rev-parse", "--short", "HEAD"));
        if (commit.isEmpty()) {
            commit = "unknown";
        } else if (!run("git", "--no-optional-locks", "status", "--porcelain").isEmpty()) {
            commit += " and the uncommitted changes of the working tree";
        }
        return new Machine(nproc, cpu.isEmpty() ? "unknown" : cpu, mem.isEmpty() ? "unknown" : mem, java, commit);
    }

    /** {@code 2 cores (nproc), AMD EPYC, OpenJDK 17.0.15+6-Debian-1deb12u1}. */
    String shortDescription() {
        return nproc + " cores (`nproc`), " + cpu + ", " + javaShort();
    }

    /** The runtime line of {@code java -version}, shortened to its vendor name and build. */
    String javaShort() {
        for (String l : javaVersion) {
            int b = l.indexOf("(build ");
            if (l.contains("Runtime Environment") && b >= 0) {
                String name = l.substring(0, l.indexOf(" Runtime")).trim();
                return name + " " + l.substring(b + 7, l.indexOf(')', b));
            }
        }
        return "Java " + System.getProperty("java.version");
    }

    private static String procField(String file, String field) {
        try {
            for (String l : Files.readAllLines(Path.of(file), StandardCharsets.UTF_8)) {
                if (l.startsWith(field)) {
                    return l.substring(l.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException e) {
            // not Linux: leave it unknown
        }
        return "";
    }

    private static String firstLine(List<String> lines) {
        return lines.isEmpty() ? "" : lines.get(0).trim();
    }

    /** The output lines of a command (stdout and stderr), or none if it cannot run or fails. */
    private static List<String> run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            List<String> lines = new ArrayList<>();
            for (String l : new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!l.isBlank()) {
                    lines.add(l.stripTrailing());
                }
            }
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return List.of();
            }
            return lines;
        } catch (IOException e) {
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }
}
