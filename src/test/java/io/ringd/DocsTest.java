package io.ringd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The Markdown pages hold together: every relative link names a file of the
 * repository (and, into a Markdown page, one of its headings), no page cites
 * a file the repository lacks, and every test the promises table
 * (docs/promises.md) names exists, so a renamed or deleted test cannot leave
 * a promise held by nothing.
 */
class DocsTest {

    private static final Path ROOT = Path.of("").toAbsolutePath();
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6} +(.+?) *$");
    private static final Pattern HELD_BY = Pattern.compile("`([A-Za-z][A-Za-z0-9_.]*)`");

    static List<Path> pages() {
        List<Path> pages = new ArrayList<>();
        pages.add(ROOT.resolve("README.md"));
        pages.add(ROOT.resolve("src/test/resources/vectors/README.md"));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pages;
    }

    @Test
    void everyRelativeLink_namesAFileOfTheRepository_andAHeadingOfAMarkdownPage() throws IOException {
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path page : pages()) {
            for (String target : links(Files.readString(page))) {
                if (target.matches("^[a-z]+:.*")) {
                    continue; // http:, https:, mailto:
                }
                links++;
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                String anchor = hash < 0 ? null : target.substring(hash + 1);
                Path to = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                if (!to.startsWith(ROOT) || !Files.exists(to)) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (no such file)");
                } else if (anchor != null && to.toString().endsWith(".md")
                        && !anchors(Files.readString(to)).contains(anchor)) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (no such heading)");
                }
            }
        }
        assertThat(links).as("relative links checked").isGreaterThan(30);
        assertThat(broken).isEmpty();
    }

    @Test
    void noFile_citesTheSpecificationFileTheRepositoryLacks() throws IOException {
        // The contract's file outside the repository, named in two parts so that this file does not cite it.
        String outside = "SPEC" + ".md";
        List<String> citing = new ArrayList<>();
        List<Path> files = new ArrayList<>(pages());
        for (String tree : List.of("src", "bench", "deploy", ".ci")) {
            try (Stream<Path> all = Files.walk(ROOT.resolve(tree))) {
                all.filter(Files::isRegularFile).filter(DocsTest::isText).forEach(files::add);
            }
        }
        for (String top : List.of("pom.xml", "Dockerfile", "docker-compose.yml", "docker-compose.cluster.yml")) {
            files.add(ROOT.resolve(top));
        }
        for (Path file : files) {
            if (Files.readString(file, java.nio.charset.StandardCharsets.ISO_8859_1).contains(outside)) {
                citing.add(ROOT.relativize(file).toString());
            }
        }
        assertThat(files).as("files read").hasSizeGreaterThan(300);
        assertThat(citing).as("files citing %s instead of docs/ring.md", outside).isEmpty();
    }

    private static boolean isText(Path file) {
        String name = file.getFileName().toString();
        return !(name.endsWith(".png") || name.endsWith(".jar") || name.endsWith(".gz"));
    }

    @Test
    void everyTestThePromisesTableNames_exists() throws IOException {
        Path tests = ROOT.resolve("src/test/java/io/ringd");
        List<String> missing = new ArrayList<>();
        int named = 0;
        for (String line : Files.readAllLines(ROOT.resolve("docs/promises.md"))) {
            String[] cells = line.split("\\|");
            if (!line.startsWith("|") || cells.length < 3 || cells[2].isBlank() || cells[2].contains("Held by")) {
                continue;
            }
            Matcher m = HELD_BY.matcher(cells[2]);
            while (m.find()) {
                named++;
                String name = m.group(1);
                if (!exists(tests, name)) {
                    missing.add(name);
                }
            }
        }
        assertThat(named).as("tests named in docs/promises.md").isGreaterThan(20);
        assertThat(missing).as("tests named in docs/promises.md that do not exist").isEmpty();
    }

    /** {@code pkg.Class}, {@code Class}, {@code pkg.Class.method} or {@code Class.method}, under {@code tests}. */
    private static boolean exists(Path tests, String name) throws IOException {
        String[] parts = name.split("\\.");
        for (int classAt = parts.length - 1; classAt >= 0; classAt--) {
            if (!Character.isUpperCase(parts[classAt].charAt(0))) {
                continue;
            }
            Path file = tests.resolve(String.join("/", List.of(parts).subList(0, classAt + 1)) + ".java");
            if (!Files.exists(file)) {
                return false;
            }
            if (classAt == parts.length - 1) {
                return true;
            }
            String method = parts[classAt + 1];
            return Pattern.compile("\\bvoid\\s+" + Pattern.quote(method) + "\\s*\\(").matcher(Files.readString(file))
                    .find();
        }
        return false;
    }

    private static List<String> links(String markdown) {
        List<String> links = new ArrayList<>();
        boolean fenced = false;
        for (String line : markdown.split("\n")) {
            if (line.trim().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (!fenced) {
                Matcher m = LINK.matcher(line);
                while (m.find()) {
                    links.add(m.group(1));
                }
            }
        }
        return links;
    }

    /** The anchors GitHub gives a page's headings. */
    static Set<String> anchors(String markdown) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : markdown.split("\n")) {
            if (line.trim().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            Matcher m = HEADING.matcher(line);
            if (fenced || !m.matches()) {
                continue;
            }
            String slug = m.group(1).toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
            int n = seen.merge(slug, 1, Integer::sum);
            anchors.add(n == 1 ? slug : slug + "-" + (n - 1));
        }
        return anchors;
    }
}
