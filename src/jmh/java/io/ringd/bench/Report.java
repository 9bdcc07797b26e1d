package io.ringd.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the sections of docs/algorithms.md share: where the report and its
 * plots go, the machine, the sample sizes, and the markdown being written.
 */
final class Report {

    /** The command that writes the report, as the report names it. */
    static final String COMMAND = "bench/algorithms.sh";

    final Path markdown;
    final Path plots;
    /** The plots' folder as the markdown links it, relative to the markdown file. */
    final String plotsLink;
    final boolean quick;
    final Machine machine;
    /** Keys sampled where a placement has no exact ownership or diff (HRW, jump). */
    final int sampleKeys;
    /** Joins and leaves averaged per exact movement figure. */
    final int changes;
    private final StringBuilder md = new StringBuilder();

    Report(Path dir, boolean quick, Machine machine) throws IOException {
        this.markdown = dir.resolve("algorithms.md");
        this.plots = dir.resolve("algorithms");
        this.plotsLink = "algorithms";
        this.quick = quick;
        this.machine = machine;
        this.sampleKeys = quick ? 1 << 16 : 1 << 20;
        this.changes = quick ? 3 : 10;
        Files.createDirectories(plots);
    }

    /** The file of plot {@code name} ({@code name.png} in the plots folder). */
    Path plot(String name) {
        return plots.resolve(name + ".png");
    }

    /** A markdown image of plot {@code name}. */
    void image(String alt, String name) {
        line("![" + alt + "](" + plotsLink + "/" + name + ".png)");
        line();
    }

    /** The line under each table: which command, which machine, how measured. */
    void provenance(String how) {
        line("<sub>`" + COMMAND + "` on " + machine.shortDescription() + "; " + how + "</sub>");
        line();
    }

    void line(String text) {
        md.append(text).append('\n');
    }

    void line() {
        md.append('\n');
    }

    void para(String text) {
        md.append(text).append("\n\n");
    }

    /**
     * Appends what the report file holds now from the line {@code heading} on: a section another
     * command writes into the same file, kept as it is. Nothing when the file or the heading is absent.
     */
    void carryOver(String heading) throws IOException {
        if (!Files.exists(markdown)) {
            return;
        }
        String old = Files.readString(markdown, StandardCharsets.UTF_8);
        int at = old.indexOf("\n" + heading + "\n");
        if (at >= 0) {
            md.append(old.substring(at + 1));
        }
    }

    void write() throws IOException {
        Files.writeString(markdown, md.toString(), StandardCharsets.UTF_8);
    }

    // ---------------------------------------------------------------- formatting

    static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }

    /** {@code 12,345}. */
    static String n(long v) {
        return f("%,d", v);
    }

    /** A ratio such as max / mean, to 3 decimals (4 when close to 1). */
    static String ratio(double r) {
        return Math.abs(r - 1) < 0.01 ? f("%.4f", r) : r >= 100 ? f("%.1f", r) : f("%.3f", r);
    }

    static String pct(double share) {
        double p = 100 * share;
        if (p != 0 && Math.abs(p) < 0.01) {
            return f("%.4f%%", p);
        }
        return Math.abs(p) < 1 ? f("%.3f%%", p) : f("%.2f%%", p);
    }

    /** Bytes as B, KiB or MiB. */
    static String bytes(double b) {
        if (b < 1024) {
            return f("%.0f B", b);
        }
        if (b < 1024 * 1024) {
            return f("%.1f KiB", b / 1024);
        }
        return f("%.1f MiB", b / (1024 * 1024));
    }

    /** A markdown table, built a row at a time. */
    static final class Table {
        private final List<String[]> rows = new ArrayList<>();
        private final String[] head;
        private final String[] align;

        /** Columns; a name starting with {@code >} is right-aligned. */
        Table(String... columns) {
            head = new String[columns.length];
            align = new String[columns.length];
            for (int i = 0; i < columns.length; i++) {
                boolean right = columns[i].startsWith(">");
                head[i] = right ? columns[i].substring(1) : columns[i];
                align[i] = right ? "---:" : "---";
            }
        }

        Table row(Object... cells) {
            if (cells.length != head.length) {
                throw new IllegalArgumentException("row has " + cells.length + " cells, table " + head.length);
            }
            String[] r = new String[cells.length];
            for (int i = 0; i < cells.length; i++) {
                r[i] = String.valueOf(cells[i]);
            }
            rows.add(r);
            return this;
        }

        void writeTo(Report report) {
            report.md.append(markdown());
        }

        /** The table's lines and a blank line after them. */
        String markdown() {
            StringBuilder b = new StringBuilder();
            b.append("| ").append(String.join(" | ", head)).append(" |\n");
            b.append("| ").append(String.join(" | ", align)).append(" |\n");
            for (String[] r : rows) {
                b.append("| ").append(String.join(" | ", r)).append(" |\n");
            }
            return b.append('\n').toString();
        }
    }
}
