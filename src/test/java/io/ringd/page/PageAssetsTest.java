package io.ringd.page;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The page's files as the jar holds them, read without a browser or a server: the page is plain ES
 * modules served as they are (no build step, no package fetched at run time), nothing in it needs
 * more than {@link PageFilter#POLICY} allows (no inline script or style, no eval), and no file is
 * longer than the project's limit. {@link PageBrowserTest} runs the page itself.
 */
class PageAssetsTest {

    static final int MAX_LINES = 450;
    private static final Pattern IMPORT = Pattern.compile("(?:^|\\n)\\s*(?:import|export)\\b[^;'\"]*?\\bfrom\\s*['\"]([^'\"]+)['\"]"
            + "|\\bimport\\s*\\(\\s*['\"]([^'\"]+)['\"]|(?:^|\\n)\\s*import\\s*['\"]([^'\"]+)['\"]");
    /** A file of the page named relatively (app/...): the page of a ring is served at / and at /rings/{name}/. */
    private static final Pattern ASSET = Pattern.compile("(?:src|href)=\"app/([^\"]+)\"");

    /** The names of the files of {@code page/app/} (served under /app/), sorted. */
    static List<String> files() {
        try (Stream<Path> files = Files.list(folder())) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void theHtmlHasNoInlineScriptOrStyleAndLoadsOneModule() throws Exception {
        String html = read("page/index.html");
        List<String> scripts = Pattern.compile("<script\\b[^>]*>(.*?)</script>", Pattern.DOTALL).matcher(html).results()
                .map(m -> m.group()).toList();
        assertThat(scripts).containsExactly("<script type=\"module\" src=\"app/app.js\"></script>");
        assertThat(html).doesNotContainPattern("(?i)<style\\b").doesNotContainPattern("(?i)\\sstyle\\s*=")
                .doesNotContainPattern("(?i)\\son[a-z]+\\s*=").doesNotContainIgnoringCase("javascript:");
        // what it names under app/ is there, and named relatively: at /rings/sessions/ it is sessions' own
        assertThat(html).doesNotContainPattern("(?:src|href)=\"/");
        assertThat(ASSET.matcher(html).results().map(m -> m.group(1)).toList())
                .containsExactlyInAnyOrder("favicon.svg", "styles.css", "app.js").allSatisfy(f -> assertThat(files()).contains(f));
    }

    @Test
    void everyModuleIsReachedFromAppJsByRelativeImportsOfFilesThatExist() throws Exception {
        Set<String> reached = new LinkedHashSet<>();
        Deque<String> todo = new ArrayDeque<>(List.of("app.js"));
        while (!todo.isEmpty()) {
            String module = todo.pop();
            if (!reached.add(module)) {
                continue;
            }
            for (String spec : imports(read("page/app/" + module))) {
                // "./x.js" only: a bare name ("lit", "d3") would need a bundler or an import map
                assertThat(spec).as("import in %s", module).matches("\\./[a-z0-9-]+\\.js");
                String file = spec.substring(2);
                assertThat(files()).as("%s imports %s", module, spec).contains(file);
                todo.push(file);
            }
        }
        List<String> modules = files().stream().filter(f -> f.endsWith(".js")).toList();
        assertThat(reached).as("modules reached from app.js").containsExactlyInAnyOrderElementsOf(modules);
        assertThat(modules).hasSizeGreaterThan(1);
    }

    @Test
    void theScriptsNeedNothingThePolicyRefuses() throws Exception {
        assertThat(PageFilter.POLICY).startsWith("default-src 'self';").doesNotContain("unsafe");
        for (String f : files().stream().filter(f -> f.endsWith(".js")).toList()) {
            String js = read("page/app/" + f);
            assertThat(js).as(f).doesNotContainPattern("\\beval\\s*\\(").doesNotContainPattern("\\bnew\\s+Function\\b")
                    .doesNotContainPattern("\\bset(?:Timeout|Interval)\\s*\\(\\s*['\"`]") // a string of code
                    .doesNotContainPattern("\\bstyle\\s*=\\s*\\\\?[\"']") // markup with a style attribute
                    .doesNotContainPattern("\\son[a-z]+\\s*=\\s*\\\\?[\"']") // markup with a handler attribute
                    .doesNotContainPattern("https?://(?!www\\.w3\\.org/2000/svg)"); // no other site
        }
    }

    @Test
    void everyCallGoesUnderThePagesRing() throws Exception {
        // api.js alone sends: call() puts a ring's path under the page's ring (docs/ring.md section 22)
        for (String f : files().stream().filter(f -> f.endsWith(".js") && !f.equals("api.js")).toList()) {
            String js = read("page/app/" + f);
            assertThat(js).as(f).doesNotContainPattern("\\bfetch\\s*\\(").doesNotContainPattern("XMLHttpRequest")
                    .doesNotContainPattern("\\bnew\\s+EventSource\\s*\\((?!ringPath\\()");
        }
        assertThat(read("page/app/api.js")).contains("fetch(instance ? path : ringPath(path)");
    }

    @Test
    void noFileOfThePageIsOverTheLineLimit() throws Exception {
        List<String> checked = files().stream().filter(f -> f.endsWith(".js") || f.endsWith(".css")).toList();
        assertThat(checked).isNotEmpty();
        for (String f : checked) {
            assertThat(read("page/app/" + f).lines().count()).as(f).isLessThanOrEqualTo(MAX_LINES);
        }
        assertThat(read("page/index.html").lines().count()).isLessThanOrEqualTo(MAX_LINES);
    }

    @Test
    void theImportPatternFindsEachForm() {
        assertThat(imports("import { a, b } from './a.js';\nimport './b.js';\nexport { c } from \"./c.js\";\n"
                + "const d = await import('./d.js');\n// from './comment.js' in a comment is no import\n"))
                .containsExactly("./a.js", "./b.js", "./c.js", "./d.js");
    }

    private static List<String> imports(String js) {
        Matcher m = IMPORT.matcher(js);
        return m.results().map(r -> r.group(1) != null ? r.group(1) : r.group(2) != null ? r.group(2) : r.group(3)).toList();
    }

    private static Path folder() {
        try {
            return Path.of(PageAssetsTest.class.getResource("/page/app/").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String read(String resource) throws IOException {
        return Files.readString(folder().getParent().getParent().resolve(resource), StandardCharsets.UTF_8);
    }
}
