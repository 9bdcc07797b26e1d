package io.ringd.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An HAProxy configuration read into its sections ({@code global}, {@code defaults},
 * {@code frontend NAME}, {@code backend NAME}, ...) and their directives, comments dropped, for
 * the deployment tests. It reads the structure only; {@code haproxy -c} (in
 * {@link DeploymentToolsTest}) checks that HAProxy accepts the file.
 */
final class HaproxyConfig {

    /** The load balancer of the cluster stack, relative to the project root. */
    static final String PATH = "deploy/haproxy/haproxy.cfg";

    private static final Set<String> SECTION_KEYWORDS = Set.of("global", "defaults", "frontend", "backend", "listen",
            "resolvers", "peers", "userlist", "mailers", "program", "http-errors", "ring", "cache");
    private static final Pattern TIME = Pattern.compile("(\\d+)(us|ms|s|m|h|d)?");

    /** One section: its keyword, its name ("" for global and an unnamed defaults) and its directives. */
    record Section(String kind, String name, List<String> lines) {

        /** The directives that start with {@code keyword} (one or more words). */
        List<String> directives(String keyword) {
            return lines.stream().filter(l -> l.equals(keyword) || l.startsWith(keyword + " ")).toList();
        }

        /** The value of {@code timeout WHICH} set in this section. */
        Optional<Duration> timeout(String which) {
            List<String> set = directives("timeout " + which);
            return set.isEmpty() ? Optional.empty()
                    : Optional.of(duration(set.get(set.size() - 1).substring(("timeout " + which).length()).trim()));
        }
    }

    private final List<Section> sections;

    private HaproxyConfig(List<Section> sections) {
        this.sections = sections;
    }

    static HaproxyConfig read() {
        return parse(DeployAssets.read(PATH));
    }

    static HaproxyConfig parse(String text) {
        List<Section> sections = new ArrayList<>();
        List<String> current = null;
        for (String raw : text.split("\n")) {
            String line = raw.replaceAll("(^|\\s)#.*$", "").strip().replaceAll("\\s+", " ");
            if (line.isEmpty()) {
                continue;
            }
            String[] words = line.split(" ", 2);
            if (!Character.isWhitespace(raw.charAt(0)) && SECTION_KEYWORDS.contains(words[0])) {
                current = new ArrayList<>();
                sections.add(new Section(words[0], words.length > 1 ? words[1] : "", current));
            } else {
                assertThat(current).as("directive outside a section: %s", line).isNotNull();
                current.add(line);
            }
        }
        return new HaproxyConfig(List.copyOf(sections));
    }

    /** Every section of a kind ({@code frontend}, {@code backend}, ...). */
    List<Section> sections(String kind) {
        return sections.stream().filter(s -> s.kind().equals(kind)).toList();
    }

    /** The section {@code kind name}; fails the test when there is none. */
    Section section(String kind, String name) {
        return sections(kind).stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no section \"" + kind + " " + name + "\" in " + PATH));
    }

    /** Every directive of every section. */
    List<String> allDirectives() {
        return sections.stream().flatMap(s -> s.lines().stream()).toList();
    }

    /**
     * The effective {@code timeout WHICH} of a frontend or backend: its own, or that of the
     * {@code defaults} section (the last one before it, as HAProxy reads them).
     */
    Optional<Duration> timeout(Section proxy, String which) {
        Optional<Duration> own = proxy.timeout(which);
        if (own.isPresent()) {
            return own;
        }
        Optional<Duration> inherited = Optional.empty();
        for (Section s : sections) {
            if (s == proxy) {
                break;
            }
            if (s.kind().equals("defaults") && s.timeout(which).isPresent()) {
                inherited = s.timeout(which);
            }
        }
        return inherited;
    }

    /** An HAProxy time (a number with an optional unit; milliseconds without one). */
    static Duration duration(String value) {
        Matcher m = TIME.matcher(value);
        assertThat(m.matches()).as("an HAProxy time: %s", value).isTrue();
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "ms" : m.group(2);
        return switch (unit) {
            case "us" -> Duration.ofNanos(n * 1000);
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            case "d" -> Duration.ofDays(n);
            default -> throw new AssertionError(unit);
        };
    }
}
