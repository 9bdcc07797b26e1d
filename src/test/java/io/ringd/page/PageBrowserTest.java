package io.ringd.page;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.logging.Level;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.context.SmartLifecycle;

import io.restassured.response.Response;
import io.ringd.RealServerTest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The ring's page in a real browser: headless Chromium driven by Selenium through the
 * chromedriver of Debian's chromium-driver package, against the real server on a random port.
 * The driver is named by its path (no Selenium Manager, nothing downloaded).
 *
 * <p>Tagged {@code tools}: {@code ./mvnw verify} leaves it out, {@code ./mvnw -Ptools verify}
 * runs it. A missing browser or driver fails the test (never skips it), naming the Debian
 * packages; .ci/run installs them. Every page is checked for console errors (a Content-Security-
 * Policy violation is one). The test writes target/page.png (the README's screenshot); with
 * {@code -Dringd.screenshots=docs} it also copies it into docs/.
 */
@Tag("tools")
class PageBrowserTest extends RealServerTest {

    static final Path CHROMEDRIVER = Path.of(System.getProperty("ringd.chromedriver", "/usr/bin/chromedriver"));
    static final Path CHROMIUM = Path.of(System.getProperty("ringd.chromium", "/usr/bin/chromium"));
    static final String INSTALL = "install it (Debian packages chromium and chromium-driver: apt-get install chromium "
            + "chromium-driver; .ci/run installs them)";
    static final Duration WAIT = Duration.ofSeconds(15);

    static ChromeDriverService service;
    static ChromeDriver driver;

    @Autowired
    ApplicationContext context;

    @BeforeAll
    static void browser() {
        if (!Files.isExecutable(CHROMEDRIVER)) {
            fail("chromedriver is not at " + CHROMEDRIVER + ": " + INSTALL);
        }
        if (!Files.isExecutable(CHROMIUM)) {
            fail("chromium is not at " + CHROMIUM + ": " + INSTALL);
        }
        service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--disable-extensions", "--no-first-run", "--window-size=1280,1000", "--lang=en-US");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        driver = new ChromeDriver(service, options);
        driver.manage().timeouts().scriptTimeout(WAIT);
    }

    @AfterAll
    static void quit() {
        if (driver != null) {
            driver.quit();
        }
        if (service != null) {
            service.stop();
        }
    }

    @BeforeEach
    void emptyRing() {
        reset();
        driver.manage().window().setSize(new Dimension(1280, 1000));
    }

    @AfterEach
    void leave() {
        driver.get("about:blank"); // closes the page's event stream
        consoleErrors(); // and drops what it logged
        for (JsonNode r : getJson("/rings").get("rings")) { // only default is left for the next test
            String name = r.get("name").asString();
            if (!name.equals("default")) {
                assertThat(admin().delete("/rings/" + name).statusCode()).as("delete ring %s", name).isEqualTo(204);
            }
        }
    }

    // ------------------------------------------------------------------ tests

    @Test
    void thePageLoadsWithItsPolicyAndNoConsoleError() {
        putAll("cache-a:1:eu-1a", "cache-b:1:eu-1b", "cache-c:2:eu-1c");
        List<String> paths = new ArrayList<>(List.of("/"));
        PageAssetsTest.files().forEach(f -> paths.add("/app/" + f));
        assertThat(paths).contains("/app/app.js", "/app/styles.css", "/app/ring-view.js", "/app/favicon.svg");
        for (String path : paths) { // the page and every file of it, each module the page imports among them
            Answer a = Answer.of(httpGet(path));
            assertThat(a.status()).as(path).isEqualTo(200);
            assertThat(a.header("content-security-policy")).as(path).startsWith("default-src 'self'");
            assertThat(a.header("content-security-policy")).as(path).doesNotContain("unsafe", "data:", "*");
        }
        assertThat(Answer.of(httpGet("/")).header("content-type")).startsWith("text/html");
        for (String path : paths.stream().filter(p -> p.endsWith(".js")).toList()) {
            assertThat(Answer.of(httpGet(path)).header("content-type")).as(path).startsWith("text/javascript");
        }
        assertProblem(httpGet("/index.html"), 404, null); // the page is at / only
        assertProblem(httpGet("/app/nope.js"), 404, null);
        long v = version();
        open();
        waitRendered(v);
        assertThat(text("status")).contains("version " + v);
        assertThat(driver.findElement(By.cssSelector("#ownership caption")).getText()).isEqualTo("Ownership");
        for (String label : List.of("Key", "Node id", "Weight", "Zone", "Admin token")) {
            assertThat(driver.findElements(By.xpath("//label[normalize-space()='" + label + "']"))).as(label).hasSize(1);
            String forId = driver.findElement(By.xpath("//label[normalize-space()='" + label + "']")).getDomAttribute("for");
            assertThat(driver.findElements(By.id(forId))).as(label).hasSize(1);
        }
        for (String button : List.of("Route", "Stage", "Remove", "Preview", "Apply")) {
            assertThat(driver.findElements(By.xpath("//button[normalize-space()='" + button + "']"))).as(button)
                    .hasSize(1);
        }
        // hovering the ring names the vnode and node of the arc under the pointer
        WebElement canvas = driver.findElement(By.id("ring-canvas"));
        int side = canvas.getRect().getWidth();
        new org.openqa.selenium.interactions.Actions(driver).moveToElement(canvas, 0, (int) (-0.34 * side)).perform();
        new WebDriverWait(driver, WAIT).until(d -> d.findElement(By.id("ring-tip")).isDisplayed());
        assertThat(text("ring-tip")).matches("cache-[abc]#\\d+ · node cache-[abc] · point \\d+ · owns .*");
        // keyboard: the ring takes focus and steps through its points
        driver.findElement(By.id("ring-canvas")).sendKeys(Keys.ARROW_RIGHT);
        String first = getJson("/points").get("points").get(0).get("vnode").asString();
        new WebDriverWait(driver, WAIT).until(d -> text("ring-cursor").startsWith(first + " "));
        assertThat(consoleErrors()).isEmpty();
    }

    @Test
    void theRingAndTheTableMatchOwnership() {
        long seed = seed("theRingAndTheTableMatchOwnership");
        Random rnd = new Random(seed);
        List<String> specs = new ArrayList<>();
        int nodes = 5 + rnd.nextInt(8);
        for (int i = 0; i < nodes; i++) {
            specs.add("node-" + i + ":" + (1 + rnd.nextInt(4)) + (rnd.nextBoolean() ? ":eu-1" + (char) ('a' + rnd.nextInt(3)) : ""));
        }
        long v = putAll(specs.toArray(String[]::new));
        open();
        waitRendered(v);
        JsonNode ownership = getJson("/ownership");
        Map<String, JsonNode> want = new HashMap<>();
        ownership.get("nodes").forEach(n -> want.put(n.get("id").asString(), n));
        List<WebElement> rows = driver.findElements(By.cssSelector("#ownership tbody tr"));
        assertThat(rows).as("seed %d", seed).hasSize(nodes);
        for (WebElement row : rows) {
            JsonNode n = want.get(row.getDomAttribute("data-node"));
            assertThat(n).as("seed %d row %s", seed, row.getText()).isNotNull();
            List<WebElement> cells = row.findElements(By.tagName("td"));
            assertThat(row.getDomAttribute("data-count")).isEqualTo(n.get("count").asString());
            assertThat(cells.get(2).getText()).isEqualTo(String.format(Locale.US, "%,d", n.get("points").asInt()));
            assertThat(cells.get(3).getText()).isEqualTo(percent(n.get("count").asLong()));
            assertThat(cells.get(1).getText()).isEqualTo(zoneText(n.get("zone")));
        }
        // the ring as drawn: each node's arcs add up to its exact count
        List<WebElement> legend = driver.findElements(By.cssSelector("#legend li[data-node]"));
        assertThat(legend).hasSize(nodes);
        for (WebElement item : legend) {
            JsonNode n = want.get(item.getDomAttribute("data-node"));
            assertThat(item.getDomAttribute("data-count")).as("seed %d ring arcs of %s", seed, n)
                    .isEqualTo(n.get("count").asString());
        }
        // sortable: by share, descending
        driver.findElement(By.xpath("//th[@data-sort='share']/button")).click();
        List<Long> counts = driver.findElements(By.cssSelector("#ownership tbody tr")).stream()
                .map(r -> Long.parseLong(r.getDomAttribute("data-count"))).toList();
        assertThat(counts).isSortedAccordingTo((a, b) -> Long.compare(b, a));
        assertThat(driver.findElement(By.xpath("//th[@data-sort='share']")).getDomAttribute("aria-sort"))
                .isEqualTo("descending");
        assertThat(consoleErrors()).isEmpty();
    }

    @Test
    void routingAKeyShowsTheServersAnswer() {
        long v = putAll("cache-a:1:eu-1a", "cache-b:1:eu-1b", "cache-c:2:eu-1c", "cache-d:1:eu-1a");
        open();
        waitRendered(v);
        for (String key : List.of("user/42", "ü x+y")) {
            JsonNode route = fastGet("/route?key=" + form(key) + "&explain=true");
            JsonNode pref = fastGet("/preference?key=" + form(key) + "&n=3&distinctZones=true");
            WebElement field = driver.findElement(By.id("key"));
            field.clear();
            field.sendKeys(key);
            WebElement zones = driver.findElement(By.id("pref-zones"));
            if (!zones.isSelected()) {
                zones.click();
            }
            driver.findElement(By.id("route")).click();
            waitText("ask-answer", "hash " + route.get("hash").asLong());
            String answer = text("ask-answer");
            assertThat(answer).contains(key + " → " + route.get("node").asString());
            JsonNode e = route.get("explain");
            assertThat(answer).contains("Owning point " + e.get("vnode").asString() + " at " + e.get("point").asLong());
            assertThat(answer).contains(e.get("start").asLong() + " to " + e.get("end").asLong());
            assertThat(answer).contains("Preference (n = 3, distinct zones): " + String.join(", ", strings(pref.get("nodes"))));
            assertThat(driver.findElements(By.cssSelector("#ring-overlay .key-line"))).hasSize(1);
            assertThat(driver.findElements(By.cssSelector("#ring-overlay .owner-arc"))).hasSize(1);
        }
        // at an older version
        putAll("cache-e:1");
        JsonNode old = fastGet("/route?key=user%2F42&version=" + v);
        driver.findElement(By.id("ask-version")).sendKeys(Long.toString(v));
        driver.findElement(By.id("key")).clear();
        driver.findElement(By.id("key")).sendKeys("user/42");
        driver.findElement(By.id("route")).click();
        waitText("ask-answer", "at version " + v);
        assertThat(text("ask-answer")).contains("user/42 → " + old.get("node").asString());
        assertThat(consoleErrors()).isEmpty();
    }

    @Test
    void askShowsWhoHeldAKeyBeforeANodeJoined() {
        long v = putAll("cache-a:1", "cache-b:1", "cache-c:1");
        open();
        waitRendered(v);
        long joined = putNode("cache-d", 1, null);
        waitRendered(joined);
        String moved = null;
        String stayed = null;
        for (int i = 0; (moved == null || stayed == null) && i < 1000; i++) {
            String key = "user/" + i;
            boolean toD = fastGet("/route?key=" + form(key)).get("node").asString().equals("cache-d");
            if (toD && moved == null) {
                moved = key;
            } else if (!toD && stayed == null) {
                stayed = key;
            }
        }
        assertThat(moved).as("a key moved to cache-d among user/0..999").isNotNull();
        JsonNode h = fastGet("/route?key=" + form(moved) + "&handoff=true").get("handoff");
        String before = fastGet("/route?key=" + form(moved) + "&version=" + v).get("node").asString();
        assertThat(h.get("movedAt").asLong()).isEqualTo(joined);
        List<String> previous = strings(h.get("previous"));
        assertThat(previous).first().isEqualTo(before);

        ask(moved, "");
        waitText("ask-answer", "Moved to cache-d at version " + joined);
        String answer = text("ask-answer");
        assertThat(answer).contains("Moved to cache-d at version " + joined + " (" + h.get("movedAtTime").asString()
                + "), previously on " + String.join(", before that ", previous) + ".");
        assertThat(answer).contains("On a miss at cache-d, a read-through asks " + String.join(", then ", previous)
                + " while the window lasts.");
        WebElement p = driver.findElement(By.cssSelector("#ask-answer .handoff"));
        assertThat(p.getDomAttribute("data-moved-at")).isEqualTo(Long.toString(joined));
        assertThat(p.getDomAttribute("data-previous")).isEqualTo(String.join(",", previous));

        // a key the join left where it was: it moved, if at all, before cache-d came
        JsonNode s = fastGet("/route?key=" + form(stayed) + "&handoff=true");
        String owner = s.get("node").asString();
        ask(stayed, "");
        waitText("ask-answer", stayed + " → " + owner + " at version " + joined);
        JsonNode sh = s.get("handoff");
        if (sh.isNull()) {
            assertThat(text("ask-answer")).contains(owner + " has held it throughout the handoff window");
        } else {
            assertThat(sh.get("movedAt").asLong()).isLessThan(joined);
            assertThat(text("ask-answer")).contains("Moved to " + owner + " at version " + sh.get("movedAt").asLong());
        }

        // at an older version: that version's route, and no handoff (the server answers it at the current one)
        ask(moved, Long.toString(v));
        waitText("ask-answer", moved + " → " + before + " at version " + v);
        assertThat(text("ask-answer")).doesNotContain("Moved to");
        assertThat(driver.findElements(By.cssSelector("#ask-answer .handoff"))).isEmpty();
        assertThat(consoleErrors()).isEmpty();
    }

    /** Routes {@code key} in the Ask panel, at {@code version} ("" for the current one). */
    private void ask(String key, String version) {
        for (String[] f : new String[][] {{"key", key}, {"ask-version", version}}) {
            WebElement e = driver.findElement(By.id(f[0]));
            e.clear();
            e.sendKeys(f[1]);
        }
        driver.findElement(By.id("route")).click();
    }

    @Test
    void stagePreviewAndApplyWithTheToken() throws Exception {
        long v = putAll("cache-a:1:eu-1a", "cache-b:1:eu-1b", "cache-c:1:eu-1c");
        open();
        waitRendered(v);
        stage("cache-d", "2", "eu-1a");
        driver.findElement(By.id("node-id")).clear();
        driver.findElement(By.id("node-id")).sendKeys("cache-b");
        driver.findElement(By.id("remove")).click();
        assertThat(text("staged")).contains("put cache-d, weight 2, zone eu-1a").contains("remove cache-b");
        assertThat(driver.findElement(By.id("apply")).isEnabled()).as("Apply before Preview").isFalse();

        JsonNode diff = json(api().contentType("application/json").body("{\"changes\":[{\"op\":\"put\",\"id\":\"cache-d\","
                + "\"weight\":2,\"zone\":\"eu-1a\"},{\"op\":\"remove\",\"id\":\"cache-b\"}]}").post("/diff?maxRanges=5000"));
        driver.findElement(By.id("preview")).click();
        waitText("change-answer", "Preview against version " + v);
        assertThat(text("change-answer")).contains("Moves " + percent(diff.get("movedCount").asLong()));
        assertThat(driver.findElements(By.cssSelector("#ring-overlay .moved"))).hasSize(1);
        assertThat(version()).as("a preview applies nothing").isEqualTo(v);

        WebElement token = driver.findElement(By.id("token"));
        token.clear();
        token.sendKeys(TOKEN);
        driver.findElement(By.id("apply")).click();
        waitText("change-answer", "Applied as version " + (v + 1));
        waitRendered(v + 1);
        List<String> ids = driver.findElements(By.cssSelector("#ownership tbody tr")).stream()
                .map(r -> r.getDomAttribute("data-node")).toList();
        assertThat(ids).containsExactlyInAnyOrder("cache-a", "cache-c", "cache-d");
        List<String> members = new ArrayList<>();
        getJson("/nodes").get("nodes").forEach(n -> members.add(n.get("id").asString()));
        assertThat(members).containsExactly("cache-a", "cache-c", "cache-d");
        assertThat(text("staged")).contains("Nothing staged.");
        // the token is in session storage only, never in local storage or the URL
        JavascriptExecutor js = driver;
        assertThat(js.executeScript("return sessionStorage.getItem('ringd.admin-token')")).isEqualTo(TOKEN);
        assertThat(js.executeScript("return localStorage.length")).isEqualTo(0L);
        assertThat(driver.getCurrentUrl()).doesNotContain(TOKEN);
        screenshot("page-apply.png");
        assertThat(consoleErrors()).isEmpty();
    }

    @Test
    void aNodePlacedByAHashKeyIsStagedAppliedAndShown() {
        adminJson("{\"hash\":\"ketama\",\"ketamaFlavor\":\"libmemcached\"}").put("/settings").then().statusCode(200);
        long v = putAll("mc-1:1", "mc-2:2");
        open();
        waitRendered(v);
        assertThat(text("ring-summary")).contains("digests counted as libmemcached does");
        fill("cache-7", "1", "");
        WebElement hashKey = driver.findElement(By.id("node-hash-key"));
        hashKey.clear();
        hashKey.sendKeys("localhost/127.0.0.1:11211");
        driver.findElement(By.id("stage")).click();
        waitText("staged", "put cache-7, weight 1, no zone, placed by localhost/127.0.0.1:11211");
        previewAndApply(v);
        waitRendered(v + 1);
        assertThat(getJson("/nodes/cache-7").get("node").get("hashKey").asString())
                .isEqualTo("localhost/127.0.0.1:11211");
        WebElement row = driver.findElement(By.cssSelector("#ownership tbody tr[data-node='cache-7']"));
        assertThat(row.getText()).contains("placed by localhost/127.0.0.1:11211");
        assertThat(driver.findElement(By.cssSelector("#ownership tbody tr[data-node='mc-1']")).getText())
                .doesNotContain("placed by");
        assertThat(consoleErrors()).isEmpty();
    }

    @Test
    void aWrongTokenAndAStaleIfMatchAreShownClearly() {
        long v = putAll("cache-a:1", "cache-b:1");
        open();
        waitRendered(v);
        stage("cache-c", "1", "");
        driver.findElement(By.id("preview")).click();
        waitText("change-answer", "Preview against version " + v);
        WebElement token = driver.findElement(By.id("token"));
        token.clear();
        token.sendKeys("not-the-admin-token-0123456789");
        driver.findElement(By.id("apply")).click();
        waitText("change-answer", "admin token was refused (401)");
        assertThat(driver.findElement(By.id("change-answer")).getDomAttribute("class")).contains("error");
        assertThat(version()).isEqualTo(v);

        // the ring moves on after the preview: Apply is refused with 412, and Preview again offered
        long moved = putAll("cache-x:1");
        token.clear();
        token.sendKeys(TOKEN);
        driver.findElement(By.id("apply")).click();
        waitText("change-answer", "The ring moved on (412)");
        assertThat(text("change-answer")).contains("described version " + v).contains("now at version " + moved);
        assertThat(version()).isEqualTo(moved);
        driver.findElement(By.xpath("//div[@id='change-answer']//button[normalize-space()='Preview again']")).click();
        waitText("change-answer", "Preview against version " + moved);
        driver.findElement(By.id("apply")).click();
        waitText("change-answer", "Applied as version " + (moved + 1));
        assertThat(getJson("/nodes/cache-c").get("node").get("weight").asDouble()).isEqualTo(1.0);
        // the refusals themselves are the only console errors (the browser logs every 4xx fetch)
        assertThat(consoleErrors()).allSatisfy(e -> assertThat(e).containsAnyOf("401", "412"));
    }

    @Test
    void aWeightOutside0To10000IsRefusedInThePageAnd10000IsTaken() {
        long v = putAll("cache-a:1", "cache-b:1");
        open();
        waitRendered(v);
        JavascriptExecutor js = driver;
        // what a refused weight sends: nothing (the Fleet and Plans panels' own reads of /followers and /plans left out)
        js.executeScript("window.requested = []; const f = window.fetch; window.fetch = (...a) => { "
                + "if (!/\\/(followers|plans)$|\\/followers\\?/.test(String(a[0]))) { window.requested.push(String(a[0])); } "
                + "return f(...a); };");
        WebElement weight = driver.findElement(By.id("node-weight"));
        for (String refused : List.of("10001", "10000.5", "0", "-1", "")) {
            fill("cache-w", refused, "");
            driver.findElement(By.id("stage")).click();
            String expected = "Weight must be a number above 0 and at most 10000: "
                    + (refused.isEmpty() ? "type one." : refused + " is not.");
            waitText("change-answer", expected);
            assertThat(driver.findElement(By.id("change-answer")).getDomAttribute("class")).as(refused).contains("error");
            assertThat(weight.getDomAttribute("aria-invalid")).as(refused).isEqualTo("true");
            assertThat(driver.switchTo().activeElement().getDomAttribute("id")).as(refused).isEqualTo("node-weight");
            assertThat(text("staged")).as(refused).isEqualTo("Nothing staged.");
        }
        driver.findElement(By.id("preview")).click();
        waitText("change-answer", "Stage a change first: nothing to preview.");
        assertThat(js.executeScript("return window.requested")).as("requests sent").isEqualTo(List.of());
        assertThat(version()).isEqualTo(v);
        // the server's rule is the same: 10001 is refused there too
        assertProblem(api().contentType("application/json")
                .body("{\"changes\":[{\"op\":\"put\",\"id\":\"cache-w\",\"weight\":10001}]}").post("/diff"), 400, null);

        stage("cache-w", "10000", "");
        assertThat(text("staged")).contains("put cache-w, weight 10000, no zone");
        assertThat(weight.getDomAttribute("aria-invalid")).isEqualTo("false");
        previewAndApply(v);
        assertThat(getJson("/nodes/cache-w").get("node").get("weight").asDouble()).isEqualTo(10000.0);
        assertThat(consoleErrors()).isEmpty();
    }

    @Test
    void historyComparesTwoKeptVersions() {
        long v1 = putAll("cache-a:1", "cache-b:1");
        long v2 = putAll("cache-c:1", "cache-a:2");
        open();
        waitRendered(v2);
        JsonNode diff = getJson("/diff?from=" + v1 + "&to=" + v2 + "&maxRanges=5000");
        driver.findElement(By.id("history-from")).sendKeys(Long.toString(v1));
        driver.findElement(By.id("history-to")).sendKeys(Long.toString(v2));
        driver.findElement(By.id("compare")).click();
        waitText("history-answer", "From version " + v1 + " to version " + v2);
        assertThat(text("history-answer")).contains("Moves " + percent(diff.get("movedCount").asLong()))
                .contains(String.format(Locale.US, "in %,d ranges", diff.get("rangeCount").asInt()));
        List<WebElement> flows = driver.findElements(By.cssSelector("#history-answer table.flows tbody tr"));
        assertThat(flows).hasSize(diff.get("flows").size());
        JsonNode top = diff.get("flows").get(0);
        assertThat(flows.get(0).getText()).startsWith(top.get("from").asString() + " " + top.get("to").asString());
        assertThat(driver.findElements(By.cssSelector("#ring-overlay .moved"))).hasSize(1);
        assertThat(consoleErrors()).isEmpty();
    }

    @Test
    void aChangeMadeThroughTheApiAppearsWithinASecond() {
        long v = putAll("cache-a:1", "cache-b:1");
        open();
        waitRendered(v);
        waitText("status", "· live");
        long next = putNode("cache-live", 1, "eu-1a");
        long t0 = System.nanoTime();
        new WebDriverWait(driver, Duration.ofSeconds(5)).until(d -> Long.toString(next).equals(
                driver.findElement(By.id("ring-section")).getDomAttribute("data-rendered-version")));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(ms).as("redrawn %d ms after the change was acknowledged", ms).isLessThan(1000);
        assertThat(text("status")).contains("version " + next);
        assertThat(driver.findElements(By.cssSelector("#ownership tbody tr[data-node='cache-live']"))).hasSize(1);
        assertThat(consoleErrors()).isEmpty();
    }

    @Test
    void aLostStreamIsShownAndFollowedAgain() {
        long v = putAll("cache-a:1", "cache-b:1");
        open();
        waitRendered(v);
        waitText("status", "· live");
        JavascriptExecutor js = driver;
        js.executeScript("window.statusSeen = []; new MutationObserver(() => window.statusSeen.push("
                + "document.getElementById('status').textContent)).observe(document.getElementById('status'), "
                + "{childList: true, characterData: true, subtree: true});");
        // the server ends every stream (as it does when it stops), and takes new ones again
        SmartLifecycle hub = context.getBeansOfType(SmartLifecycle.class).values().stream()
                .filter(b -> b.getClass().getSimpleName().equals("WatchHub")).findFirst().orElseThrow();
        hub.stop();
        hub.start();
        new WebDriverWait(driver, WAIT).withMessage(() -> "the page to say the stream was lost; it said "
                + js.executeScript("return window.statusSeen")).until(d -> String.valueOf(
                        js.executeScript("return window.statusSeen.join('|')")).contains("live updates lost: reconnecting"));
        long next = putNode("cache-c", 1, null);
        waitRendered(next); // followed again: the browser reconnects with Last-Event-ID
        waitText("status", "version " + next + " · live");
        // an ended stream is the only thing the console may report
        assertThat(consoleErrors()).allSatisfy(e -> assertThat(e).contains("ring/events"));
    }

    @Test
    void thePickerListsTheRingsAndOpensTheChosenRingsPage() {
        long dv = putAll("cache-a:1", "cache-b:1");
        long sv = ringBatch("sessions", "sess-1:1:eu-1a", "sess-2:2:eu-1b", "sess-3:1:eu-1c");
        open();
        waitRendered(dv);
        Select picker = picker();
        assertThat(picker.getOptions()).extracting(WebElement::getText).containsExactly("default", "sessions");
        assertThat(picker.getFirstSelectedOption().getText()).isEqualTo("default");
        assertThat(text("ring-name")).isEqualTo("default");

        picker.selectByVisibleText("sessions"); // navigates to the ring's own page, a link to it
        new WebDriverWait(driver, WAIT).until(d -> d.getCurrentUrl().endsWith("/rings/sessions/"));
        waitRendered(sv);
        assertThat(text("ring-name")).isEqualTo("sessions");
        assertThat(driver.getTitle()).contains("sessions");
        assertThat(picker().getFirstSelectedOption().getText()).isEqualTo("sessions");
        assertThat(driver.findElements(By.cssSelector("#ownership tbody tr")))
                .extracting(r -> r.getDomAttribute("data-node")).containsExactlyInAnyOrder("sess-1", "sess-2", "sess-3");
        assertThat(driver.findElements(By.cssSelector("#legend li[data-node]"))).hasSize(3);
        // routed on sessions, not on default
        driver.findElement(By.id("key")).sendKeys("user:42");
        driver.findElement(By.id("route")).click();
        new WebDriverWait(driver, WAIT).until(d -> !d.findElement(By.id("ask-answer")).getText().isEmpty());
        assertThat(driver.findElement(By.id("ask-answer")).getDomAttribute("data-node")).startsWith("sess-");
        // applied to sessions, with the admin token; default is left as it was
        stage("sess-4", "1", "eu-1a");
        previewAndApply(sv);
        assertThat(getJson("/rings/sessions/nodes").get("nodes")).hasSize(4);
        assertThat(getJson("/nodes").get("nodes")).hasSize(2);
        assertThat(version()).isEqualTo(dv);
        // followed: a change to sessions made through the API is drawn; one to default is not
        waitText("status", "· live");
        long next = ringBatch("sessions", "sess-5:1");
        waitRendered(next);
        putNode("cache-c", 1, null);
        assertThat(driver.findElements(By.cssSelector("#ownership tbody tr[data-node='cache-c']"))).isEmpty();

        picker().selectByVisibleText("default"); // back to /
        new WebDriverWait(driver, WAIT).until(d -> d.getCurrentUrl().equals("http://localhost:" + port + "/"));
        waitRendered(version());
        assertThat(driver.findElements(By.cssSelector("#ownership tbody tr[data-node='cache-c']"))).hasSize(1);
        assertThat(consoleErrors()).isEmpty();
    }

    @Test
    void aDeletedRingOrOneNeverMadeIsSaidSo() {
        long v = ringBatch("short-lived", "temp-1:1", "temp-2:1");
        open("/rings/short-lived/");
        waitRendered(v);
        waitText("status", "· live");
        assertThat(driver.findElement(By.id("ring-gone")).isDisplayed()).isFalse();
        Response deleted = admin().delete("/rings/short-lived");
        assertThat(deleted.statusCode()).as(deleted.asString()).isEqualTo(204);
        // its stream ends, and the page finds the ring gone (404 naming ring)
        waitText("ring-gone", "There is no ring named short-lived.");
        assertThat(text("status")).contains("ring short-lived not found");
        assertThat(driver.findElement(By.tagName("main")).isDisplayed()).isFalse();
        assertThat(picker().getOptions()).extracting(WebElement::getText).containsExactly("default",
                "short-lived (not found)");

        // a link to a ring that does not exist opens the page (404), which says so
        for (String path : List.of("/rings/short-lived/", "/rings/never-made/")) {
            String name = path.split("/")[2];
            Answer page = Answer.of(send(java.net.http.HttpRequest.newBuilder(uri(path)).header("Accept", "text/html")));
            assertThat(page.status()).as(path).isEqualTo(404);
            assertThat(page.header("content-type")).as(path).startsWith("text/html");
            assertThat(page.header("content-security-policy")).as(path).startsWith("default-src 'self'");
            open(path);
            waitText("ring-gone", "There is no ring named " + name + ".");
            assertThat(driver.findElement(By.tagName("main")).isDisplayed()).isFalse();
        }
        // the API still answers the problem naming ring
        assertProblem(httpGet("/rings/never-made/"), 404, "ring");
        assertProblem(httpGet("/rings/never-made/ownership"), 404, "ring");
        // the page's link back to default
        driver.findElement(By.linkText("the ring default")).click();
        new WebDriverWait(driver, WAIT).until(d -> d.getCurrentUrl().equals("http://localhost:" + port + "/"));
        waitRendered(version());
        // what the console may report: the 404s of the missing ring's page and calls, its ended stream
        assertThat(consoleErrors()).allSatisfy(e -> assertThat(e).containsAnyOf("404", "ring/events"));
    }

    @Test
    void theFleetShowsWhatTheFollowersHoldTheDivergedByNameAndWhenTheyConverge() {
        // a ring of its own, which no other test's followers report to; its page asks /rings/fleet/followers
        long v = ringBatch("fleet", "cache-a:1", "cache-b:1");
        open("/rings/fleet/");
        waitRendered(v);
        waitText("fleet-status", "No followers have reported.");
        assertThat(driver.findElement(By.id("fleet-versions")).isDisplayed()).isFalse();
        assertThat(driver.findElement(By.id("fleet-diverged")).isDisplayed()).isFalse();

        String fingerprint = getJson("/rings/fleet").get("fingerprint").asString();
        String wrong = otherFingerprint(fingerprint);
        report("fleet", "app-1", v, fingerprint);
        report("fleet", "app-2", v, wrong);
        waitText("fleet-status", "Not converged: 1 of 2 followers hold version " + v + "; 1 diverged.");
        assertThat(stateCounts()).containsExactly(Map.entry("current", "1"), Map.entry("behind", "0"),
                Map.entry("diverged", "1"), Map.entry("silent", "0"));
        assertThat(driver.findElement(By.cssSelector("#fleet-states li[data-state='diverged']")).getDomAttribute("class"))
                .contains("alarm");
        WebElement diverged = driver.findElement(By.id("fleet-diverged"));
        assertThat(diverged.isDisplayed()).isTrue();
        assertThat(diverged.getText()).contains("Diverged: 1 follower").contains("app-2 at version " + v)
                .doesNotContain("app-1");
        assertThat(diverged.findElements(By.cssSelector("li[data-follower]"))).extracting(e -> e.getDomAttribute("data-follower"))
                .containsExactly("app-2");
        assertThat(driver.findElement(By.id("fleet-section")).getDomAttribute("data-converged")).isEqualTo("false");
        assertThat(versionRows()).containsExactly(Map.entry(v + " (current)", "2"));

        // app-2 loads the ring again: every follower holds the ring's version
        report("fleet", "app-2", v, fingerprint);
        waitText("fleet-status", "Converged: all 2 followers hold version " + v + ".");
        assertThat(driver.findElement(By.id("fleet-section")).getDomAttribute("data-converged")).isEqualTo("true");
        assertThat(driver.findElement(By.id("fleet-diverged")).isDisplayed()).isFalse();
        assertThat(stateCounts()).containsEntry("current", "2").containsEntry("diverged", "0");

        // a change: both are behind until they report it, then converged again
        long next = ringBatch("fleet", "cache-c:1");
        waitRendered(next);
        waitText("fleet-status", "Converging: 0 of 2 followers hold version " + next + ".");
        assertThat(stateCounts()).containsEntry("current", "0").containsEntry("behind", "2");
        assertThat(versionRows()).containsExactly(Map.entry(Long.toString(v), "2"));
        String nextFingerprint = getJson("/rings/fleet").get("fingerprint").asString();
        report("fleet", "app-1", next, nextFingerprint);
        waitText("fleet-status", "Converging: 1 of 2 followers hold version " + next + ".");
        assertThat(versionRows()).containsExactly(Map.entry(next + " (current)", "1"), Map.entry(Long.toString(v), "1"));
        report("fleet", "app-2", next, nextFingerprint);
        waitText("fleet-status", "Converged: all 2 followers hold version " + next + ".");
        assertThat(versionRows()).containsExactly(Map.entry(next + " (current)", "2"));
        JsonNode listed = getJson("/rings/fleet/followers");
        assertThat(listed.get("summary").get("current").asInt()).isEqualTo(2);

        // the ring default's page shows default's followers, not these
        open();
        waitRendered(version());
        new WebDriverWait(driver, WAIT).until(d -> !text("fleet-status").startsWith("Loading"));
        assertThat(text("fleet-section")).doesNotContain("app-1").doesNotContain("app-2");
        assertThat(consoleErrors()).isEmpty();
    }

    /** Reports that follower {@code id} of ring {@code ring} holds {@code version} with {@code fingerprint}. */
    private void report(String ring, String id, long version, String fingerprint) {
        Response r = api().contentType("application/json")
                .body("{\"version\":" + version + ",\"fingerprint\":\"" + fingerprint + "\"}").put("/rings/" + ring + "/followers/" + id);
        assertThat(r.statusCode()).as("report of %s: %s", id, r.asString()).isBetween(200, 204);
    }

    /** A fingerprint of the same length and alphabet that is not {@code fingerprint}: each hex digit flipped. */
    private static String otherFingerprint(String fingerprint) {
        assertThat(fingerprint).matches("[0-9a-f]+");
        StringBuilder other = new StringBuilder();
        for (char c : fingerprint.toCharArray()) {
            other.append(Character.forDigit(Character.digit(c, 16) ^ 0xf, 16));
        }
        return other.toString();
    }

    /** The Fleet panel's counts by state, as shown: state to count. */
    private Map<String, String> stateCounts() {
        Map<String, String> counts = new LinkedHashMap<>();
        for (WebElement li : driver.findElements(By.cssSelector("#fleet-states li[data-state]"))) {
            counts.put(li.getDomAttribute("data-state"), li.getDomAttribute("data-count"));
            assertThat(li.getText()).isEqualTo(li.getDomAttribute("data-count") + " " + li.getDomAttribute("data-state"));
        }
        return counts;
    }

    /** The Fleet panel's table of versions, as shown: the version cell to the followers counted. */
    private Map<String, String> versionRows() {
        Map<String, String> rows = new LinkedHashMap<>();
        for (WebElement tr : driver.findElements(By.cssSelector("#fleet-versions tbody tr"))) {
            rows.put(tr.findElement(By.tagName("th")).getText(), tr.findElements(By.tagName("td")).get(0).getText());
        }
        return rows;
    }

    @Test
    void aPlanIsStartedFromThePageFollowedPausedResumedAndAnotherAborted() {
        // a ring of its own (its page at /rings/plans/), so that no other test's ring is held by a plan
        long v = ringBatch("plans", "cache-a:1", "cache-b:1", "cache-c:1");
        open("/rings/plans/");
        waitRendered(v);
        waitText("plans-status", "No plan has been made for this ring.");
        assertThat(displayed("plan-current")).isFalse();

        // staged and previewed as a plan: the dry run's steps, nothing started
        JsonNode dry = json(adminJson("{\"changes\":[{\"op\":\"put\",\"id\":\"cache-d\",\"weight\":1}],"
                + "\"maxMovedShare\":0.06,\"minStepInterval\":\"PT3S\"}").post("/rings/plans/plans?dryRun=true"));
        int n = dry.get("steps").size();
        assertThat(n).as("steps of a join that moves about a quarter, 6%% each: %s", dry).isGreaterThanOrEqualTo(4);
        stage("cache-d", "1", "");
        driver.findElement(By.id("as-plan")).click();
        assertThat(driver.findElement(By.id("apply")).getText()).isEqualTo("Start plan");
        type("plan-budget", "0");
        driver.findElement(By.id("preview")).click();
        waitText("change-answer", "Budget per step must be a percentage above 0 and at most 100.");
        assertThat(driver.findElement(By.id("plan-budget")).getDomAttribute("aria-invalid")).isEqualTo("true");
        type("plan-budget", "6");
        type("plan-interval", "3");
        token("");
        driver.findElement(By.id("preview")).click();
        waitText("change-answer", "Type the Admin token first: a plan's dry run (POST /plans?dryRun=true) is an admin call.");
        token(TOKEN);
        driver.findElement(By.id("preview")).click();
        waitText("change-answer", "Plan preview against version " + v + ": nothing started yet.");
        assertThat(text("change-answer")).contains(n + " steps, each moving at most 6%");
        List<WebElement> rows = driver.findElements(By.cssSelector("#change-answer table.plan-steps tbody tr.step"));
        assertThat(rows).hasSize(n);
        for (int i = 0; i < n; i++) {
            JsonNode step = dry.get("steps").get(i);
            assertThat(rows.get(i).getText()).startsWith((i + 1) + " put cache-d ")
                    .contains(shareText(step.get("movedShare").asDouble()));
        }
        assertThat(getJson("/rings/plans/plans").get("plans")).as("a preview starts nothing").isEmpty();

        // started: the Plans panel follows it step by step
        driver.findElement(By.id("apply")).click();
        waitText("change-answer", " started: " + n + " steps from version " + v + ".");
        String id = getJson("/rings/plans/plans").get("plans").get(0).get("id").asString();
        assertThat(text("change-answer")).contains("Plan " + id + " started");
        waitPlanStep(id, 1);
        assertThat(text("plans-status")).contains("Plan " + id + " is running");
        assertThat(driver.findElement(By.id("plan-head")).getText()).isEqualTo("Plan " + id + " running");
        assertThat(text("plan-facts")).contains("at most 6% of the hash space moved per step")
                .contains("at least 3 s between two steps").contains("Gate\nnone");
        int seen = waitPlanStep(id, 2); // advancing: step 2 (or later) made, the next one waits
        assertThat(madeRows()).as("steps shown made").isEqualTo(seen);
        assertThat(driver.findElement(By.id("plan-progress")).getDomProperty("value")).isEqualTo(Integer.toString(seen));
        assertThat(driver.findElement(By.id("plan-progress")).getDomProperty("max")).isEqualTo(Integer.toString(n));
        assertThat(text("plan-progress-label")).startsWith("Step " + seen + " of " + n + " made");
        assertThat(displayed("plan-pause")).isTrue();
        assertThat(displayed("plan-resume")).isFalse();

        // paused from the page
        driver.findElement(By.id("plan-pause")).click();
        waitText("plans-status", "Plan " + id + " is paused");
        JsonNode paused = getJson("/rings/plans/plans/" + id);
        int k = paused.get("currentStep").asInt();
        assertThat(paused.get("state").asString()).isEqualTo("paused");
        assertThat(paused.get("reason").asString()).isEqualTo("admin");
        assertThat(k).isBetween(seen, n - 1);
        waitText("plan-answer", "Plan " + id + " paused at step " + k + " of " + n + ".");
        waitText("plan-reason", "Paused by an admin at step " + k + " of " + n);
        assertThat(displayed("plan-pause")).isFalse();
        assertThat(displayed("plan-resume")).isTrue();
        assertThat(driver.switchTo().activeElement().getDomAttribute("id")).as("focus after Pause").isEqualTo("plan-resume");
        assertThat(getJson("/rings/plans").get("version").asLong()).isEqualTo(paused.get("steps").get(k - 1).get("version")
                .asLong());

        // a direct change meanwhile is refused: the Change safely panel names the plan and points at the panel
        driver.findElement(By.id("as-plan")).click();
        stage("cache-x", "1", "");
        long held = getJson("/rings/plans").get("version").asLong();
        driver.findElement(By.id("preview")).click();
        waitText("change-answer", "Preview against version " + held);
        driver.findElement(By.id("apply")).click();
        waitText("change-answer", "Plan " + id + " holds the ring (409, paused): nothing was applied.");
        assertThat(text("change-answer")).contains("pause it or abort it in the Plans panel");
        driver.findElement(By.xpath("//div[@id='change-answer']//button[normalize-space()='the Plans panel']")).click();
        assertThat(driver.switchTo().activeElement().getDomAttribute("id")).isEqualTo("plans-title");
        assertThat(getJson("/rings/plans/nodes").get("nodes")).hasSize(4);

        // resumed from the page: it runs to its end, and is listed as done
        driver.findElement(By.id("plan-resume")).click();
        waitText("plan-answer", "Plan " + id + " resumed at step " + k + " of " + n + ".");
        new WebDriverWait(driver, Duration.ofSeconds(3L * n + 15)).withMessage(() -> "plan " + id + " done; the panel "
                + "says: " + text("plans-section")).until(d -> !d.findElements(By.cssSelector(
                "#plans-ended li[data-plan='" + id + "'][data-state='done']")).isEmpty());
        waitText("plans-status", "No plan holds the ring: direct changes are open. The latest plan, " + id + ", is done ("
                + n + " of " + n + " steps made).");
        assertThat(displayed("plan-current")).isFalse();
        assertThat(getJson("/rings/plans/plans/" + id).get("state").asString()).isEqualTo("done");
        assertThat(getJson("/rings/plans/nodes/cache-d").get("node").get("weight").asDouble()).isEqualTo(1.0);
        long done = getJson("/rings/plans").get("version").asLong();
        waitRendered(done);

        // another, started through the API, to wait a minute after its first step
        JsonNode other = json(adminJson("{\"changes\":[{\"op\":\"remove\",\"id\":\"cache-a\"}],\"maxMovedShare\":0.06,"
                + "\"minStepInterval\":\"PT60S\"}").post("/rings/plans/plans"));
        String id2 = other.get("id").asString();
        int n2 = other.get("steps").size();
        waitPlanStep(id2, 1);
        waitText("plan-gate", "Step 2 of " + n2 + " waits for:");
        assertThat(text("plan-gate")).contains("The interval: 1 min after step 1").contains("No gate");

        // a wrong token: refused, said, and the plan runs on
        token("not-the-admin-token-0123456789");
        driver.findElement(By.id("plan-pause")).click();
        waitText("plan-answer", "The admin token was refused (401): plan " + id2 + " was not paused.");
        assertThat(driver.findElement(By.id("plan-answer")).getDomAttribute("class")).contains("error");
        assertThat(getJson("/rings/plans/plans/" + id2).get("state").asString()).isEqualTo("running");
        token(TOKEN);

        // the plan paused elsewhere while the page still shows it running: its Pause is refused (409), said so
        JavascriptExecutor js = driver;
        js.executeScript("window.heldPlans = []; window.holdPlans = true; const f = window.fetch;"
                + "window.fetch = (...a) => { if (window.holdPlans && !(a[1] && a[1].method && a[1].method !== 'GET')"
                + " && /\\/plans$/.test(String(a[0]))) { return new Promise((go) => window.heldPlans.push(() => go(f(...a)))); }"
                + " return f(...a); };"
                + "window.releasePlans = () => { window.holdPlans = false; window.heldPlans.splice(0).forEach((go) => go()); };");
        new WebDriverWait(driver, WAIT).until(d -> ((Number) js.executeScript("return window.heldPlans.length")).intValue() > 0);
        assertThat(admin().post("/rings/plans/plans/" + id2 + "/pause").statusCode()).isEqualTo(200);
        driver.findElement(By.id("plan-pause")).click();
        waitText("plan-answer", "Refused (409): plan " + id2 + " was not paused.");
        assertThat(text("plan-answer")).contains("only a running plan can be paused");
        js.executeScript("window.releasePlans()");
        waitText("plans-status", "Plan " + id2 + " is paused");

        // aborted from the page, after a second thought
        driver.findElement(By.id("plan-abort")).click();
        waitText("plan-confirm", "Abort plan " + id2 + " at step 1 of " + n2 + "?");
        driver.findElement(By.id("plan-abort-cancel")).click();
        assertThat(displayed("plan-confirm")).isFalse();
        assertThat(getJson("/rings/plans/plans/" + id2).get("state").asString()).isEqualTo("paused");
        driver.findElement(By.id("plan-abort")).click();
        driver.findElement(By.id("plan-abort-confirm")).click();
        waitText("plan-answer", "Plan " + id2 + " aborted at step 1 of " + n2 + ".");
        waitText("plans-status", "No plan holds the ring: direct changes are open. The latest plan, " + id2
                + ", is aborted (1 of " + n2 + " steps made).");
        JsonNode aborted = getJson("/rings/plans/plans/" + id2);
        assertThat(aborted.get("state").asString()).isEqualTo("aborted");
        assertThat(aborted.get("reason").asString()).isEqualTo("admin");
        assertThat(driver.findElements(By.cssSelector("#plans-ended li[data-plan]"))).extracting(e -> e.getDomAttribute(
                "data-plan") + " " + e.getDomAttribute("data-state")).containsExactly(id2 + " aborted", id + " done");
        // an ended plan opens to its steps
        driver.findElement(By.cssSelector("#plans-ended li[data-plan='" + id2 + "'] summary")).click();
        assertThat(driver.findElements(By.cssSelector("#plans-ended li[data-plan='" + id2 + "'] tr.step")))
                .extracting(r -> r.getDomAttribute("data-state")).startsWith("made", "not-made").hasSize(n2);
        // the refusals themselves are the only console errors (the browser logs every 4xx fetch)
        assertThat(consoleErrors()).allSatisfy(e -> assertThat(e).containsAnyOf("401", "409"));
    }

    @Test
    void thePlansPanelShowsTheGateAPlanWaitsOn() throws Exception {
        long v = ringBatch("gated", "cache-a:1", "cache-b:1", "cache-c:1");
        String fingerprint = getJson("/rings/gated").get("fingerprint").asString();
        report("gated", "app-1", v, fingerprint);
        report("gated", "app-2", v, fingerprint);
        open("/rings/gated/");
        waitRendered(v);
        waitText("fleet-status", "Converged: all 2 followers hold version " + v + ".");

        // a plan whose steps each wait for every follower: the first is made at once, the second waits
        JsonNode plan = json(adminJson("{\"changes\":[{\"op\":\"put\",\"id\":\"cache-d\",\"weight\":1}],"
                + "\"maxMovedShare\":0.08,\"minStepInterval\":\"PT0S\",\"gate\":{\"convergedShare\":1.0,\"timeout\":\"PT10M\"}}")
                .post("/rings/gated/plans"));
        String id = plan.get("id").asString();
        int n = plan.get("steps").size();
        assertThat(n).isGreaterThanOrEqualTo(3);
        waitPlanStep(id, 1);
        long v1 = getJson("/rings/gated/plans/" + id).get("steps").get(0).get("version").asLong();
        waitText("plan-gate", "The gate: 100% of the followers at version " + v1 + " or later: 0 of 2 followers there "
                + "(0%): not met yet.");
        assertThat(text("plan-gate")).contains("Step 2 of " + n + " waits for:").contains("The interval: 0 s after step 1")
                .containsPattern("Waiting for \\d+ (s|min)[^(]*\\(since \\d\\d:\\d\\d:\\d\\d\\); the plan pauses if the gate is "
                        + "not met within 10 min \\(in \\d+ min( \\d+ s)?\\)\\.");
        assertThat(text("plan-facts")).contains("100% of the followers at each step's version, within 10 min");
        WebElement gate = driver.findElement(By.id("plan-gate"));
        assertThat(gate.getDomAttribute("data-converged")).isEqualTo("false");
        assertThat(gate.getDomAttribute("data-followers")).isEqualTo("2");

        // one follower applies the step's version, the other stays behind: half way, still waiting
        JsonNode ring = getJson("/rings/gated");
        assertThat(ring.get("version").asLong()).isEqualTo(v1);
        report("gated", "app-1", v1, ring.get("fingerprint").asString());
        waitText("plan-gate", "1 of 2 followers there (50%): not met yet.");
        assertThat(gate.getDomAttribute("data-at-or-past")).isEqualTo("1");
        waitText("fleet-status", "Converging: 1 of 2 followers hold version " + v1 + ".");
        assertThat(getJson("/rings/gated/plans/" + id).get("currentStep").asInt()).as("held by its gate").isEqualTo(1);
        JavascriptExecutor js = driver;
        js.executeScript("document.getElementById('plans-section').scrollIntoView()");
        screenshot("page-plans.png");
        driver.manage().window().setSize(new Dimension(390, 844)); // a phone: the steps scroll within their table
        assertThat((Long) js.executeScript("return document.documentElement.scrollWidth"))
                .isLessThanOrEqualTo((Long) js.executeScript("return document.documentElement.clientWidth"));
        driver.manage().window().setSize(new Dimension(1280, 1000));

        // the other one too: the gate is met, step 2 is made, and step 3 waits for its version in turn
        report("gated", "app-2", v1, ring.get("fingerprint").asString());
        waitPlanStep(id, 2);
        long v2 = getJson("/rings/gated/plans/" + id).get("steps").get(1).get("version").asLong();
        waitText("plan-gate", "at version " + v2 + " or later: 0 of 2 followers there (0%): not met yet.");
        assertThat(admin().post("/rings/gated/plans/" + id + "/abort").statusCode()).isEqualTo(200);
        waitText("plans-status", "The latest plan, " + id + ", is aborted (2 of " + n + " steps made).");

        // a gate that times out pauses the plan: said, with what Resume would do
        JsonNode timed = json(adminJson("{\"changes\":[{\"op\":\"put\",\"id\":\"cache-e\",\"weight\":1}],"
                + "\"maxMovedShare\":0.08,\"gate\":{\"convergedShare\":1.0,\"timeout\":\"PT1S\"}}").post("/rings/gated/plans"));
        String id2 = timed.get("id").asString();
        waitText("plan-reason", "Paused at step 1 of " + timed.get("steps").size() + " (gate-timeout): the gate was not met "
                + "within 1 s. Resume to wait for it again");
        assertThat(text("plans-status")).startsWith("Plan " + id2 + " is paused");
        assertThat(text("plan-gate")).contains("0 of 2 followers there (0%): not met yet.")
                .contains("Once resumed, it waits for the gate again, for at most 1 s from then.");
        assertThat(displayed("plan-resume")).isTrue();
        assertThat(displayed("plan-pause")).isFalse();
        assertThat(getJson("/rings/gated/plans/" + id2).get("reason").asString()).isEqualTo("gate-timeout");
        assertThat(consoleErrors()).isEmpty();
    }

    /** Waits until the Plans panel shows plan {@code id} holding the ring with at least {@code step} steps made; those. */
    private int waitPlanStep(String id, int step) {
        WebElement section = driver.findElement(By.id("plans-section"));
        new WebDriverWait(driver, WAIT).withMessage(() -> "plan " + id + " at step " + step + " or later on the page; it "
                + "shows plan " + section.getDomAttribute("data-plan") + " at step " + section.getDomAttribute("data-step")
                + ": " + text("plans-status") + "; console: " + consoleErrors()).until(d -> id.equals(section.getDomAttribute(
                "data-plan")) && Integer.parseInt(section.getDomAttribute("data-step")) >= step);
        return Integer.parseInt(section.getDomAttribute("data-step"));
    }

    /** The steps the held plan's table shows made. */
    private int madeRows() {
        return driver.findElements(By.cssSelector("#plan-steps tr.step[data-state='made']")).size();
    }

    /** A share as the Plans panel writes it: JavaScript's toFixed(3) of share * 100. */
    private static String shareText(double share) {
        return new java.math.BigDecimal(share * 100).setScale(3, java.math.RoundingMode.HALF_UP).toPlainString() + "%";
    }

    /** Types {@code value} into the field {@code id}, replacing what it held. */
    private void type(String id, String value) {
        WebElement e = driver.findElement(By.id(id));
        e.clear();
        e.sendKeys(value);
    }

    /** Types the Admin token (of the Change safely panel, which the Plans panel's buttons send too). */
    private void token(String token) {
        type("token", token);
    }

    private boolean displayed(String id) {
        return driver.findElement(By.id(id)).isDisplayed();
    }

    @Test
    void aRingOf2000NodesRendersWithinTwoSeconds() {
        // 2,000 nodes of 128 points: 256,000 points, drawn as 720 exact slices
        long v = bigRing(2000);
        open(); // a first look (the server's JIT and its per-version summary warm up), then the one timed
        waitRendered(v);
        System.out.printf(Locale.ROOT, "2,000 nodes, 256,000 points: first page rendered in %s ms%n",
                driver.findElement(By.id("ring-section")).getDomAttribute("data-render-ms"));
        open();
        waitRendered(v);
        double ms = Double.parseDouble(driver.findElement(By.id("ring-section")).getDomAttribute("data-render-ms"));
        WebElement section = driver.findElement(By.id("ring-section"));
        System.out.printf(Locale.ROOT, "2,000 nodes, 256,000 points: rendered in %.0f ms (ring %s ms, table %s ms, "
                + "layout and paint %s ms)%n", ms, section.getDomAttribute("data-draw-ms"),
                section.getDomAttribute("data-table-ms"), section.getDomAttribute("data-paint-ms"));
        assertThat(ms).as("fetch and render of a 2,000-node ring, measured in the browser").isLessThan(2000);
        assertThat(text("ring-summary")).contains("2,000 nodes").contains("720 equal slices");
        assertThat(driver.findElements(By.cssSelector("#ownership tbody tr"))).hasSize(2000);

        // 2,000 nodes of 10 points: 20,000 points, every one drawn
        assertThat(adminJson("{\"vnodesPerWeight\":10}").put("/settings").statusCode()).isEqualTo(200);
        long v2 = version();
        waitRendered(v2); // the open page follows the change
        open();
        waitRendered(v2);
        double ms2 = Double.parseDouble(driver.findElement(By.id("ring-section")).getDomAttribute("data-render-ms"));
        System.out.printf(Locale.ROOT, "2,000 nodes, 20,000 points: rendered in %.0f ms (drawing %s ms)%n", ms2,
                driver.findElement(By.id("ring-section")).getDomAttribute("data-draw-ms"));
        assertThat(text("ring-summary")).contains("20,000 points, every point drawn");
        assertThat(ms2).isLessThan(2000);
        assertThat(consoleErrors()).isEmpty();
    }

    @Test
    void aMaglevTableIsDrawnAsAStrip() {
        assertThat(adminJson("{\"algorithm\":\"maglev\",\"maglevTableSize\":1009}").put("/settings").statusCode())
                .isEqualTo(200);
        long v = putAll("cache-a:1", "cache-b:2", "cache-c:1");
        open();
        waitRendered(v);
        assertThat(driver.findElement(By.id("ring-wrap")).getDomAttribute("class")).contains("strip");
        JsonNode ownership = getJson("/ownership");
        for (JsonNode n : ownership.get("nodes")) {
            WebElement item = driver.findElement(By.cssSelector("#legend li[data-node='" + n.get("id").asString() + "']"));
            assertThat(item.getDomAttribute("data-count")).isEqualTo(n.get("points").asString());
        }
        driver.findElement(By.id("key")).sendKeys("user:42");
        driver.findElement(By.id("route")).click();
        JsonNode route = fastGet("/route?key=user%3A42&explain=true");
        waitText("ask-answer", "Maglev entry " + route.get("explain").get("entry").asInt() + " of 1009");
        assertThat(driver.findElements(By.cssSelector("#ring-overlay .entry-mark"))).hasSize(1);
        assertThat(consoleErrors()).isEmpty();
    }

    @Test
    void thePageFitsAPhoneAndMakesTheReadmeScreenshot() throws Exception {
        long v = putAll("cache-a:1:eu-1a", "cache-b:1:eu-1b", "cache-c:2:eu-1c", "cache-d:1:eu-1a", "cache-e:1.5:eu-1b");
        driver.manage().window().setSize(new Dimension(390, 844));
        open();
        waitRendered(v);
        JavascriptExecutor js = driver;
        long scrollWidth = (Long) js.executeScript("return document.documentElement.scrollWidth");
        long clientWidth = (Long) js.executeScript("return document.documentElement.clientWidth");
        assertThat(scrollWidth).as("no horizontal scrolling at 390 px").isLessThanOrEqualTo(clientWidth);
        assertThat(driver.findElement(By.id("ring-canvas")).getRect().getWidth()).isLessThanOrEqualTo((int) clientWidth);
        assertThat(driver.findElement(By.id("route")).isDisplayed()).isTrue();
        screenshot("page-phone.png");

        // the README's screenshot, at a laptop's width: a routed key and a change previewed as a plan
        driver.manage().window().setSize(new Dimension(1280, 1560));
        open();
        waitRendered(v);
        driver.findElement(By.id("key")).sendKeys("user/42");
        driver.findElement(By.id("route")).click();
        waitText("ask-answer", "Owning point");
        stage("cache-f", "1", "eu-1c");
        driver.findElement(By.id("as-plan")).click();
        type("plan-budget", "4");
        token(TOKEN);
        driver.findElement(By.id("preview")).click();
        waitText("change-answer", "Plan preview against version " + v);
        js.executeScript("window.scrollTo(0, 0)");
        screenshot("page.png");
        assertThat(consoleErrors()).isEmpty();
    }

    // ------------------------------------------------------------------ helpers

    private void open() {
        open("/");
    }

    private void open(String path) {
        driver.get("http://localhost:" + port + path);
    }

    /** The ring picker, once it holds what GET /rings listed. */
    private Select picker() {
        new WebDriverWait(driver, WAIT).until(d -> "true".equals(d.findElement(By.id("ring-picker"))
                .getDomAttribute("data-loaded")));
        return new Select(driver.findElement(By.id("ring-picker")));
    }

    /** Puts every node into ring {@code name} as one batch (made first, if it does not exist); its version. */
    private long ringBatch(String name, String... specs) {
        if (api().get("/rings/" + name).statusCode() == 404) {
            Response made = adminJson("{\"name\":\"" + name + "\",\"settings\":{\"hash\":\"md5\",\"vnodesPerWeight\":64}}")
                    .post("/rings");
            assertThat(made.statusCode()).as(made.asString()).isEqualTo(201);
        }
        return putAllInto(name, specs);
    }

    /** Waits until the page has drawn version {@code v} (the ring and the table). */
    private void waitRendered(long v) {
        new WebDriverWait(driver, WAIT).withMessage(() -> "version " + v + " drawn; the page drew "
                + driver.findElement(By.id("ring-section")).getDomAttribute("data-rendered-version") + ", status \""
                + text("status") + "\"; console: " + consoleErrors()).until(d -> Long.toString(v).equals(
                d.findElement(By.id("ring-section")).getDomAttribute("data-rendered-version")));
    }

    /** Waits until the element's text contains {@code expected}; the failure says what it held. */
    private void waitText(String id, String expected) {
        new WebDriverWait(driver, WAIT).withMessage(() -> "#" + id + " to contain \"" + expected + "\"; it holds: \""
                + text(id) + "\"; console: " + consoleErrors()).until(d -> text(id).contains(expected));
    }

    private String text(String id) {
        return driver.findElement(By.id(id)).getText();
    }

    private void stage(String id, String weight, String zone) {
        fill(id, weight, zone);
        driver.findElement(By.id("stage")).click();
        waitText("staged", id);
    }

    /** Previews the staged batch against version {@code v}, then applies it with the admin token. */
    private void previewAndApply(long v) {
        driver.findElement(By.id("preview")).click();
        waitText("change-answer", "Preview against version " + v);
        WebElement token = driver.findElement(By.id("token"));
        token.clear();
        token.sendKeys(TOKEN);
        driver.findElement(By.id("apply")).click();
        waitText("change-answer", "Applied as version " + (v + 1));
    }

    /** Types a node into the Change safely fields. */
    private void fill(String id, String weight, String zone) {
        for (String[] f : new String[][] {{"node-id", id}, {"node-weight", weight}, {"node-zone", zone}}) {
            WebElement e = driver.findElement(By.id(f[0]));
            e.clear();
            e.sendKeys(f[1]);
        }
    }

    /** A share of the hash space as the page writes it: JavaScript's toFixed(3) of count / 2^32 * 100. */
    private static String percent(long count) {
        return new java.math.BigDecimal((count / (double) SPACE) * 100).setScale(3, java.math.RoundingMode.HALF_UP)
                .toPlainString() + "%";
    }

    private static String zoneText(JsonNode zone) {
        return zone == null || zone.isNull() ? "—" : zone.asString();
    }

    /** SEVERE entries of the browser console since the last call (CSP violations, script errors, failed loads). */
    private static List<String> consoleErrors() {
        List<String> errors = new ArrayList<>();
        for (LogEntry e : driver.manage().logs().get(LogType.BROWSER)) {
            if (e.getLevel().intValue() >= Level.SEVERE.intValue()) {
                errors.add(e.getMessage());
            }
        }
        return errors;
    }

    /** Saves a screenshot in target/; with -Dringd.screenshots=DIR, also in DIR. */
    private static void screenshot(String name) throws Exception {
        Path shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE).toPath();
        Path target = Path.of("target", name);
        Files.createDirectories(target.getParent());
        Files.copy(shot, target, StandardCopyOption.REPLACE_EXISTING);
        String dir = System.getProperty("ringd.screenshots");
        if (dir != null && !dir.isBlank() && name.equals("page.png")) {
            Files.copy(shot, Path.of(dir, name), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** A ring of {@code nodes} nodes of weight 1 in four zones, as one batch; its version. */
    private long bigRing(int nodes) {
        ArrayNode changes = JSON.createArrayNode();
        for (int i = 0; i < nodes; i++) {
            changes.addObject().put("op", "put").put("id", String.format(Locale.ROOT, "node-%04d", i)).put("weight", 1)
                    .put("zone", "z" + (i % 4));
        }
        ObjectNode body = JSON.createObjectNode();
        body.set("changes", changes);
        Response r = adminJson(body.toString()).post("/membership");
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(200);
        return json(r).get("version").asLong();
    }

    static long seed(String test) {
        String given = System.getProperty("ringd.seed");
        long seed = given == null || given.isBlank() ? 20_260_214L : Long.parseLong(given.trim());
        System.out.println(test + ": seed " + seed + " (replay with -Dringd.seed=" + seed + ")");
        return seed;
    }
}
