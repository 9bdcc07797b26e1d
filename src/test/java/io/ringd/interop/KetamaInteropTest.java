package io.ringd.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.ToLongFunction;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

import io.restassured.response.Response;
import io.ringd.RealServerTest;
import io.ringd.client.RingClient;
import io.ringd.interop.MemcachedServers.Server;
import net.spy.memcached.ConnectionFactory;
import net.spy.memcached.DefaultConnectionFactory;
import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.KetamaConnectionFactory;
import net.spy.memcached.KetamaNodeKeyFormatter;
import net.spy.memcached.MemcachedClient;
import net.spy.memcached.MemcachedNode;
import net.spy.memcached.NodeLocator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * ringd's {@code hash=ketama} against real memcached clients writing to real memcached servers
 * (docs/ring.md section 14, docs/migrating-from-ketama.md): spymemcached 2.12.3 in this JVM,
 * libmemcached through Debian's pylibmc, and the npm {@code memcached} client (its ring is the
 * npm {@code hashring} package). Each case stores thousands of keys of every shape through the
 * client, asks every server with the text protocol which keys it holds, and checks that each
 * key sits on exactly the server ringd routes it to; then changes the membership (one server
 * out, one in) in the client and in ringd, stores every key again, and checks that the keys
 * that changed servers are exactly those in the moved ranges of ringd's diff, each from and to
 * the servers the diff names.
 *
 * <p>Tagged {@code tools}: {@code ./mvnw verify} leaves it out, {@code ./mvnw -Ptools verify}
 * runs it. A missing memcached, python3-pylibmc, nodejs or npm fails it (never skips it),
 * naming the Debian package; .ci/run installs them.
 */
@Tag("tools")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KetamaInteropTest extends RealServerTest {

    /** Keys stored per case. */
    static final int KEYS = 3_000;
    /** Servers started for the whole class: the largest case uses them all. */
    static final int SERVERS = 25;
    /** The longest wait on one of spymemcached's futures. */
    static final long SPY_WAIT_SECONDS = 10;

    static final String LIBKETAMA = "libketama";
    static final String LIBMEMCACHED = "libmemcached";
    static final String HASHRING = "hashring";
    static final List<String> FLAVORS = List.of(LIBKETAMA, LIBMEMCACHED, HASHRING);
    /**
     * The weight sets of the vectors (ketama-flavors.json) where the clients' arithmetic
     * differs: each gives some server another number of digests under one flavor or another.
     */
    static final int[][] WEIGHT_SETS = {{1, 1, 1, 2, 14, 21}, {1, 1, 1, 1, 27, 29}, {1, 1, 1, 1, 19, 25}};
    static final KetamaNodeKeyFormatter.Format SPYMEMCACHED_FORMAT = KetamaNodeKeyFormatter.Format.SPYMEMCACHED;
    static final KetamaNodeKeyFormatter.Format LIBMEMCACHED_FORMAT = KetamaNodeKeyFormatter.Format.LIBMEMCACHED;

    static final Pattern NPM_REPLACEMENT_PATTERN = Pattern.compile("\\$[$&'`]");

    static MemcachedServers memcached;
    static List<String> keys;

    @BeforeAll
    static void startServers() {
        ClientScripts.requirePylibmc();
        ClientScripts.requireNodeClient();
        keys = InteropKeys.keys(20_261_202L, KEYS);
        memcached = MemcachedServers.start(SERVERS);
    }

    @AfterAll
    static void stopServers() {
        if (memcached != null) {
            memcached.close();
        }
    }

    @BeforeEach
    void quietSpymemcached() {
        // spymemcached logs every connection at INFO through SLF4J (set below); the test wants its warnings only
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger("net.spy.memcached"))
                .setLevel(ch.qos.logback.classic.Level.WARN);
    }

    static {
        System.setProperty("net.spy.log.LoggerImpl", "net.spy.memcached.compat.log.SLF4JLogger");
        // KetamaNodeLocator asserts 160 points a server, which a weighted continuum need not have (its
        // floors lose digests: 956 points for 1,1,1,1,27,29); surefire runs with -ea, production without
        KetamaInteropTest.class.getClassLoader().setPackageAssertionStatus("net.spy.memcached", false);
    }

    @Test
    void theWeightSets_areTheVectors() throws IOException {
        JsonNode vectors = json(Files.readString(
                Path.of("src/test/resources/vectors/ketama-flavors.json")));
        Set<String> sets = new HashSet<>();
        for (JsonNode c : vectors.get("cases")) {
            List<Integer> w = new ArrayList<>();
            c.get("nodes").forEach(n -> w.add(n.get("weight").asInt()));
            sets.add(w.toString());
        }
        for (int[] set : WEIGHT_SETS) {
            assertThat(sets).contains(Arrays.toString(set));
        }
    }

    // ------------------------------------------------------------------ the keys themselves

    @Test
    void theKeys_areOfEveryShapeTheClientsAccept() {
        assertThat(keys).hasSize(KEYS).doesNotHaveDuplicates().allMatch(InteropKeys::acceptable);
        assertThat(keys).anyMatch(k -> k.getBytes(StandardCharsets.UTF_8).length == InteropKeys.MAX_BYTES)
                .anyMatch(k -> k.codePoints().anyMatch(c -> c > 0xFFFF)) // 4-byte UTF-8
                .anyMatch(k -> k.chars().anyMatch(c -> c >= 0x80 && c < 0x800)) // 2-byte
                .anyMatch(k -> k.contains("%")).anyMatch(k -> k.contains("/")).anyMatch(k -> k.contains("\\"))
                .anyMatch(k -> k.contains("\"")).anyMatch(k -> k.length() == 1);
        assertThat(keys.stream().filter(k -> k.chars().anyMatch(c -> c >= 0x80)).count())
                .as("keys with non-ASCII characters: %s", InteropKeys.shapes(keys)).isGreaterThan(KEYS / 3);
    }

    // ------------------------------------------------------------------ libmemcached (pylibmc)

    /** pylibmc with {@code ketama_weighted}, five servers of weight 1: every key where ringd routes it. */
    @Test
    void pylibmcKetamaWeighted_equalWeights_everyKeyOnTheServerRingdRoutesItTo() {
        List<Member> members = libmemcachedNames(memcached.servers().subList(0, 5), equalWeights(5));
        long v = configure(LIBMEMCACHED, members);
        assertPlacedAsRingdRoutes(store(Client.pylibmcWeighted(), members, "p1"), members, v);
    }

    /**
     * The vectors' weight sets: with {@code ketamaFlavor=libmemcached} every key is where
     * libmemcached put it; libketama's and hashring's counts misplace keys wherever they give a
     * server another number of points.
     */
    @Test
    void pylibmcKetamaWeighted_unequalWeights_onlyTheLibmemcachedFlavorPlacesEveryKey() {
        assertOnlyFlavorPlacesEveryKey(Client.pylibmcWeighted(), LIBMEMCACHED, KetamaInteropTest::libmemcachedNames);
    }

    /** 25 servers of weight 1: libmemcached's float arithmetic gives each 39 digests (156 points), not 40. */
    @Test
    void pylibmcKetamaWeighted_25EqualServers_156PointsEach_onlyTheLibmemcachedFlavor() {
        List<Member> members = libmemcachedNames(memcached.servers(), equalWeights(25));
        assertOnlyFlavor(Client.pylibmcWeighted(), LIBMEMCACHED, members, "p25", Set.of(LIBKETAMA, HASHRING));
        assertThat(ownershipPoints(configure(LIBMEMCACHED, members)).values()).containsOnly(156);
    }

    /**
     * pylibmc's plain {@code ketama} (without {@code ketama_weighted}) is another continuum: 100
     * points per server, one per name {@code host[:port]-i} (i = 0 .. 99, port 11211 left out),
     * each the 32-bit hash of that name under the {@code hash} behavior, and keys hashed with the
     * same function: Jenkins' one-at-a-time by default, MD5 (first 4 bytes, little-endian) with
     * {@code "hash": "md5"}. The model here places every key as the client did; ringd's ketama
     * does not.
     */
    @Test
    void pylibmcPlainKetama_isAnotherContinuum_hundredPointsAndTheHashBehavior() {
        List<Member> members = libmemcachedNames(memcached.servers().subList(0, 5), equalWeights(5));
        long v = configure(LIBMEMCACHED, members);
        Map<String, String> ringd = routes(keys, v);

        Map<String, Server> oneAtATime = store(Client.pylibmc(Map.of("ketama", true)), members, "p1");
        assertThat(mismatches(oneAtATime, plainKetama(members, KetamaInteropTest::oneAtATime)))
                .as("plain ketama, default hash: 100 one-at-a-time points per server").isEmpty();
        assertThat(misplacedByRingd(oneAtATime, ringd, members)).as("keys ringd's ketama places elsewhere")
                .hasSizeGreaterThan(KEYS / 2);

        Map<String, Server> md5 = store(Client.pylibmc(Map.of("ketama", true, "hash", "md5")), members, "p2");
        assertThat(mismatches(md5, plainKetama(members, KetamaInteropTest::md5LittleEndian)))
                .as("plain ketama, hash md5: 100 MD5 points per server").isEmpty();
        assertThat(misplacedByRingd(md5, ringd, members)).as("keys ringd's ketama places elsewhere")
                .hasSizeGreaterThan(KEYS / 2);
    }

    /**
     * Plain {@code ketama} with a server of weight above 1: libmemcached switches to the weighted
     * continuum as it adds that server (hosts.cc, server_add), but keys still hash with the
     * {@code hash} behavior. With {@code "hash": "md5"} that is ringd's libmemcached flavor; with
     * the default one-at-a-time it is ringd's points with keys hashed one-at-a-time.
     */
    @Test
    void pylibmcPlainKetama_aWeightAbove1_isTheWeightedContinuum_keysByTheHashBehavior() {
        List<Member> members = libmemcachedNames(mixed6(), WEIGHT_SETS[0]);
        long v = configure(LIBMEMCACHED, members);
        Map<String, Server> md5 = store(Client.pylibmc(Map.of("ketama", true, "hash", "md5")), members, "p1");
        assertPlacedAsRingdRoutes(md5, members, v);

        Map<String, Server> oneAtATime = store(Client.pylibmc(Map.of("ketama", true)), members, "p2");
        TreeMap<Long, Server> continuum = new TreeMap<>();
        Map<String, Server> byId = new HashMap<>();
        members.forEach(m -> byId.put(m.id(), m.server()));
        for (JsonNode p : fastGet("/points").get("points")) {
            continuum.put(p.get("hash").asLong(), byId.get(p.get("node").asString()));
        }
        Map<String, Server> model = new HashMap<>();
        for (String key : keys) {
            Map.Entry<Long, Server> e = continuum.ceilingEntry(oneAtATime(key.getBytes(StandardCharsets.UTF_8)));
            model.put(key, (e != null ? e : continuum.firstEntry()).getValue());
        }
        assertThat(mismatches(oneAtATime, model)).as("ringd's points, keys hashed one-at-a-time").isEmpty();
        assertThat(misplacedByRingd(oneAtATime, routes(keys, v), members)).hasSizeGreaterThan(KEYS / 2);
    }

    @Test
    void pylibmcKetamaWeighted_oneServerOutOneIn_movesExactlyWhatRingdsDiffSays() {
        List<Server> s = memcached.servers();
        assertMovesAsDiffSays(Client.pylibmcWeighted(), LIBMEMCACHED,
                libmemcachedNames(s.subList(0, 5), equalWeights(5)),
                libmemcachedNames(List.of(s.get(0), s.get(1), s.get(3), s.get(4), s.get(5)), equalWeights(5)));
    }

    /** Weighted: every server's point count changes with the membership, so keys move between servers that stay. */
    @Test
    void pylibmcKetamaWeighted_unequalWeights_oneServerOutOneIn_movesExactlyWhatRingdsDiffSays() {
        List<Server> s = mixed6();
        assertMovesAsDiffSays(Client.pylibmcWeighted(), LIBMEMCACHED, libmemcachedNames(s, WEIGHT_SETS[0]),
                libmemcachedNames(List.of(s.get(0), s.get(1), s.get(2), s.get(3), s.get(5), memcached.get(9)),
                        weights(1, 1, 1, 2, 21, 3)));
    }

    // ------------------------------------------------------------------ npm memcached (hashring)

    /** The npm memcached client, five servers of weight 1 in its object form. */
    @Test
    void npmMemcached_equalWeights_everyKeyOnTheServerRingdRoutesItTo() {
        List<Member> members = libmemcachedNames(memcached.servers().subList(0, 5), equalWeights(5));
        long v = configure(HASHRING, members);
        assertPlacedAsRingdRoutes(store(Client.npm(), members, "n1"), members, v);
    }

    @Test
    void npmMemcached_unequalWeights_onlyTheHashringFlavorPlacesEveryKey() {
        assertOnlyFlavorPlacesEveryKey(Client.npm(), HASHRING, KetamaInteropTest::libmemcachedNames);
    }

    /** 7 servers of weight 1: hashring's double arithmetic gives each 39 digests (156 points), not 40. */
    @Test
    void npmMemcached_7EqualServers_156PointsEach_onlyTheHashringFlavor() {
        List<Server> s = memcached.servers();
        List<Member> members = libmemcachedNames(List.of(s.get(0), s.get(1), s.get(2), s.get(3), s.get(6), s.get(7),
                s.get(8)), equalWeights(7));
        assertOnlyFlavor(Client.npm(), HASHRING, members, "n7", Set.of(LIBKETAMA, LIBMEMCACHED));
        assertThat(ownershipPoints(configure(HASHRING, members)).values()).containsOnly(156);
    }

    /** The client's own continuum (its HashRing's points) is GET /points, point for point. */
    @Test
    void npmMemcached_continuum_isRingdsPoints() {
        List<Member> members = libmemcachedNames(mixed6(), WEIGHT_SETS[1]);
        configure(HASHRING, members);
        ObjectNode request = scriptRequest(members, List.of(), "");
        request.put("mode", "points");
        Map<String, String> byServer = new HashMap<>();
        members.forEach(m -> byServer.put(m.server().toString(), m.id()));
        List<String> client = new ArrayList<>();
        for (JsonNode p : ClientScripts.npmMemcached(request).get("points")) {
            client.add(p.get("hash").asLong() + " " + byServer.get(p.get("server").asString()));
        }
        assertThat(client).hasSize(960).isEqualTo(ringdPoints());
    }

    @Test
    void npmMemcached_oneServerOutOneIn_movesExactlyWhatRingdsDiffSays() {
        List<Server> s = memcached.servers();
        assertMovesAsDiffSays(Client.npm(), HASHRING, libmemcachedNames(s.subList(0, 5), equalWeights(5)),
                libmemcachedNames(List.of(s.get(1), s.get(2), s.get(3), s.get(4), s.get(6)), equalWeights(5)));
    }

    @Test
    void npmMemcached_unequalWeights_oneServerOutOneIn_movesExactlyWhatRingdsDiffSays() {
        List<Server> s = mixed6();
        assertMovesAsDiffSays(Client.npm(), HASHRING, libmemcachedNames(s, WEIGHT_SETS[2]),
                libmemcachedNames(List.of(s.get(0), s.get(2), s.get(3), s.get(4), s.get(5), memcached.get(10)),
                        weights(1, 1, 1, 19, 25, 2)));
    }

    // ------------------------------------------------------------------ spymemcached

    /**
     * spymemcached's {@code KetamaConnectionFactory} (key format SPYMEMCACHED, no weights), servers
     * given by address: it hashes {@code ip:port} (port 11211 kept), ringd's node ids. Every key a
     * spymemcached application wrote is on the server ringd and its Java client route it to.
     */
    @Test
    void spymemcached_addresses_everyKeyOnTheServerRingdAndItsJavaClientRouteItTo() throws Exception {
        List<Member> members = spyAddresses(memcached.servers().subList(0, 5), equalWeights(5));
        long v = configure(LIBKETAMA, members);
        Map<String, Server> placed = store(Client.spymemcached(SPYMEMCACHED_FORMAT, false), members, "s1");
        assertPlacedAsRingdRoutes(placed, members, v);
        assertPlacedAsJavaClientRoutes(placed, members, v);
    }

    /**
     * Key format LIBMEMCACHED with servers given by host name: spymemcached hashes the host name,
     * and {@code name:PORT} for a port other than 11211; both are node ids for ringd.
     */
    @Test
    void spymemcached_libmemcachedFormat_hostNames_everyKeyOnTheServerRingdRoutesItTo() {
        List<Member> members = spyLibmemcachedNames(memcached.servers().subList(0, 5), equalWeights(5));
        long v = configure(LIBKETAMA, members);
        assertPlacedAsRingdRoutes(store(Client.spymemcached(LIBMEMCACHED_FORMAT, false), members, "s2"), members, v);
    }

    /**
     * Key format SPYMEMCACHED with servers given by host name: spymemcached hashes
     * {@code name/ip:port}, which is no node id, so each node is named {@code cache-N} and carries
     * that string as its {@code hashKey}. Renaming the nodes (same hashKeys) then moves no key
     * from one server to another.
     */
    @Test
    void spymemcachedWeighted_hostNames_nodesWithHashKeys_everyKeyWhereRingdAndItsJavaClientRouteIt()
            throws Exception {
        List<Member> members = spyHashKeys(mixed6(), WEIGHT_SETS[0], "cache-");
        assertThat(members).allSatisfy(m -> assertThat(m.hashKey()).contains("/").endsWith(":" + m.server().port()));
        long v = configure(LIBMEMCACHED, members);
        Map<String, Server> placed = store(Client.spymemcached(SPYMEMCACHED_FORMAT, true), members, "s1");
        assertPlacedAsRingdRoutes(placed, members, v);
        assertPlacedAsJavaClientRoutes(placed, members, v);

        List<Member> renamed = spyHashKeys(mixed6(), WEIGHT_SETS[0], "memcached-");
        ArrayNode changes = JSON.createArrayNode();
        members.forEach(m -> changes.addObject().put("op", "remove").put("id", m.id()));
        renamed.forEach(m -> changes.add(putChange(m)));
        Response r = batch(changes.toString());
        assertThat(r.statusCode()).as("rename: %s", r.asString()).isEqualTo(200);
        long v2 = json(r).get("version").asLong();
        JsonNode diff = fastGet("/diff?from=" + v + "&to=" + v2 + "&maxRanges=0&maxFlows=100000");
        for (JsonNode flow : diff.get("flows")) {
            assertThat(flow.get("to").asString()).as("a renamed node takes only its own arcs")
                    .isEqualTo(flow.get("from").asString().replace("cache-", "memcached-"));
        }
        assertPlacedAsRingdRoutes(placed, renamed, v2);
    }

    @Test
    void spymemcachedWeighted_unequalWeights_onlyTheLibmemcachedFlavorPlacesEveryKey() {
        assertOnlyFlavorPlacesEveryKey(Client.spymemcached(SPYMEMCACHED_FORMAT, true), LIBMEMCACHED,
                KetamaInteropTest::spyAddresses);
    }

    /** spymemcached's own continuum (its KetamaNodeLocator's points) is GET /points, point for point. */
    @Test
    void spymemcachedWeighted_continuum_isRingdsPoints() throws Exception {
        List<Member> members = spyAddresses(mixed6(), WEIGHT_SETS[1]);
        configure(LIBMEMCACHED, members);
        assertThat(spyContinuum(SPYMEMCACHED_FORMAT, true, members)).hasSize(956).isEqualTo(ringdPoints());
    }

    /**
     * Without weights spymemcached's locator gives every server 40 digests (160 points) whatever
     * the number of servers: with 25 that is libketama's count, and libmemcached's (39 digests
     * there) misplaces keys. So ringd's libmemcached flavor is spymemcached's weighted locator,
     * not its unweighted one.
     */
    @Test
    void spymemcachedWithoutWeights_25Servers_isLibketamasCount_notLibmemcacheds() {
        List<Member> members = spyAddresses(memcached.servers(), equalWeights(25));
        assertOnlyFlavor(Client.spymemcached(SPYMEMCACHED_FORMAT, false), LIBKETAMA, members, "s25",
                Set.of(LIBMEMCACHED));
    }

    /** The same 25 servers with a weights map (every weight 1): libmemcached's count, 156 points each. */
    @Test
    void spymemcachedWithWeights_25EqualServers_isLibmemcachedsCount() {
        List<Member> members = spyAddresses(memcached.servers(), equalWeights(25));
        assertOnlyFlavor(Client.spymemcached(SPYMEMCACHED_FORMAT, true), LIBMEMCACHED, members, "w25",
                Set.of(LIBKETAMA, HASHRING));
    }

    /**
     * 61 servers without weights (spymemcached's continuum alone, no server needed): 160 points
     * each, where ringd's libketama and libmemcached flavors give 156; hashring's count happens
     * to give 160 there. No flavor is spymemcached's unweighted count for every server count.
     */
    @Test
    void spymemcachedWithoutWeights_61Servers_160PointsEach_whereLibketamaGives156() throws Exception {
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < 61; i++) {
            members.add(new Member(new Server("127.0.0.1", 40_000 + i), 1, "127.0.0.1:" + (40_000 + i), null));
        }
        List<String> spy = spyLocatorContinuum(members);
        assertThat(spy).hasSize(61 * 160);
        configure(LIBKETAMA, members);
        assertThat(ringdPoints()).hasSize(61 * 156).isNotEqualTo(spy);
        configure(LIBMEMCACHED, members);
        assertThat(ringdPoints()).hasSize(61 * 156);
        configure(HASHRING, members);
        assertThat(ringdPoints()).isEqualTo(spy);
    }

    @Test
    void spymemcached_oneServerOutOneIn_movesExactlyWhatRingdsDiffSays() {
        List<Server> s = memcached.servers();
        assertMovesAsDiffSays(Client.spymemcached(SPYMEMCACHED_FORMAT, false), LIBKETAMA,
                spyAddresses(s.subList(0, 5), equalWeights(5)),
                spyAddresses(List.of(s.get(0), s.get(1), s.get(2), s.get(3), s.get(7)), equalWeights(5)));
    }

    @Test
    void spymemcachedWeighted_hashKeys_oneServerOutOneIn_movesExactlyWhatRingdsDiffSays() {
        List<Server> s = mixed6();
        assertMovesAsDiffSays(Client.spymemcached(SPYMEMCACHED_FORMAT, true), LIBMEMCACHED,
                spyHashKeys(s, WEIGHT_SETS[1], "cache-"),
                spyHashKeys(List.of(s.get(0), s.get(1), s.get(2), s.get(4), s.get(5), memcached.get(11)),
                        weights(1, 1, 1, 27, 29, 5), "cache-"));
    }

    // ------------------------------------------------------------------ the checks

    /**
     * One membership, as the client and ringd each hold it, then another: every key stored
     * through the client under each, and the keys that changed servers compared with the moved
     * ranges of {@code GET /diff} between the two versions.
     */
    private void assertMovesAsDiffSays(Client client, String flavor, List<Member> before, List<Member> after) {
        long v1 = configure(flavor, before);
        Map<String, Server> first = store(client, before, "before");
        assertPlacedAsRingdRoutes(first, before, v1);

        Set<String> beforeIds = ids(before);
        Set<String> afterIds = ids(after);
        ArrayNode changes = JSON.createArrayNode();
        for (Member m : before) {
            if (!afterIds.contains(m.id())) {
                changes.addObject().put("op", "remove").put("id", m.id());
            }
        }
        for (Member m : after) {
            if (!beforeIds.contains(m.id()) || weightOf(before, m.id()) != m.weight()) {
                changes.add(putChange(m));
            }
        }
        Response r = batch(changes.toString());
        assertThat(r.statusCode()).as("membership change: %s", r.asString()).isEqualTo(200);
        long v2 = json(r).get("version").asLong();

        Map<String, Server> second = store(client, after, "after");
        assertPlacedAsRingdRoutes(second, after, v2);

        Ranges diff = Ranges.of(fastGet("/diff?from=" + v1 + "&to=" + v2 + "&maxRanges=100000&maxFlows=0"));
        Map<Server, String> idOf = new HashMap<>();
        before.forEach(m -> idOf.put(m.server(), m.id()));
        after.forEach(m -> idOf.put(m.server(), m.id()));

        Set<String> moved = new HashSet<>();
        Set<String> predicted = new HashSet<>();
        List<String> wrongEnds = new ArrayList<>();
        int betweenStaying = 0;
        for (String key : client.keys()) {
            String was = idOf.get(first.get(key));
            String now = idOf.get(second.get(key));
            if (!was.equals(now)) {
                moved.add(key);
                if (afterIds.contains(was) && beforeIds.contains(now)) {
                    betweenStaying++;
                }
            }
            int at = diff.indexOf(ketamaHash(key));
            if (at >= 0) {
                predicted.add(key);
                if (!diff.from()[at].equals(was) || !diff.to()[at].equals(now)) {
                    wrongEnds.add(key + ": the diff says " + diff.from()[at] + " -> " + diff.to()[at]
                            + ", the client moved it " + was + " -> " + now);
                }
            }
        }
        System.out.printf("KetamaInteropTest: %s, %s -> %s: %d of %d keys moved, %d between servers in both%n",
                client, ids(before), ids(after), moved.size(), client.keys().size(), betweenStaying);
        assertThat(moved).as("keys the client moved").isNotEmpty();
        if (before.stream().mapToInt(Member::weight).distinct().count() > 1) {
            // weighted: a member's digest count depends on every weight, so servers that stay trade keys too
            assertThat(betweenStaying).as("keys moved between two servers of both memberships").isPositive();
        }
        assertThat(moved).as("keys the client moved, against keys in the diff's moved ranges (%d ranges, %d values)",
                diff.starts().length, diff.movedCount()).isEqualTo(predicted);
        assertThat(wrongEnds).as("moved keys whose old or new server is not the diff's").isEmpty();
    }

    /**
     * For each of {@link #WEIGHT_SETS} on {@link #mixed6()}: only {@code flavor} places every key
     * where {@code client} put it (see {@link #assertOnlyFlavor}); over the sets, every other
     * flavor misplaces keys at least once.
     */
    private void assertOnlyFlavorPlacesEveryKey(Client client, String flavor,
            BiFunction<List<Server>, int[], List<Member>> naming) {
        Set<String> refuted = new TreeSet<>();
        for (int i = 0; i < WEIGHT_SETS.length; i++) {
            refuted.addAll(assertOnlyFlavor(client, flavor, naming.apply(mixed6(), WEIGHT_SETS[i]), "w" + i, Set.of()));
        }
        assertThat(refuted).as("flavors that misplace keys on some weight set")
                .containsExactlyInAnyOrderElementsOf(FLAVORS.stream().filter(f -> !f.equals(flavor)).toList());
    }

    /**
     * {@code members} through {@code client}: with {@code flavor} every key is where ringd routes
     * it. Switched to each other flavor, ringd misplaces exactly the keys whose hash lies in the
     * moved ranges of the diff between the two flavors' rings, and none when that diff is empty.
     * So that a flavor that differs is shown to misplace keys however few the stored keys are in
     * its ranges, up to 16 probe keys ({@code probe:...}) hashed into each diff's ranges are
     * stored with the others. Those in {@code mustMisplace} must differ. Answers the flavors that
     * misplaced keys.
     */
    private Set<String> assertOnlyFlavor(Client client, String flavor, List<Member> members, String value,
            Set<String> mustMisplace) {
        long v = configure(flavor, members);
        Map<String, Ranges> diffs = new LinkedHashMap<>();
        for (String other : FLAVORS) {
            if (!other.equals(flavor)) {
                diffs.put(other, Ranges.of(fastGet("/diff?from=" + v + "&to=" + setFlavor(other)
                        + "&maxRanges=100000&maxFlows=0")));
            }
        }
        long vr = setFlavor(flavor);
        List<String> probes = new ArrayList<>();
        diffs.forEach((other, ranges) -> probes.addAll(ranges.probes("probe:" + other + ":", 16)));
        Map<String, Server> placed = store(client, members, value, probes);
        assertPlacedAsRingdRoutes(placed, members, vr);

        Set<String> refuted = new HashSet<>();
        for (Map.Entry<String, Ranges> d : diffs.entrySet()) {
            String other = d.getKey();
            long vo = setFlavor(other);
            Set<String> wrong = misplacedKeys(placed, routes(List.copyOf(placed.keySet()), vo), members);
            Set<String> predicted = new HashSet<>();
            placed.keySet().stream().filter(k -> d.getValue().holds(ketamaHash(k))).forEach(predicted::add);
            long inStored = wrong.stream().filter(k -> !k.startsWith("probe:")).count();
            System.out.printf("KetamaInteropTest: %s, weights %s: ketamaFlavor=%s moves %d hash values and "
                    + "misplaces %d of %d keys (and %d probes)%n", client, members.stream().map(Member::weight).toList(),
                    other, d.getValue().movedCount, inStored, placed.size() - probes.size(), wrong.size() - inStored);
            assertThat(wrong).as("keys %s misplaces, against the keys in its diff's moved ranges", other)
                    .isEqualTo(predicted);
            if (d.getValue().movedCount > 0) {
                assertThat(wrong).as("keys %s misplaces", other).isNotEmpty();
                refuted.add(other);
            }
        }
        assertThat(refuted).as("flavors that misplace keys").containsAll(mustMisplace);
        return refuted;
    }

    /** PUT /settings {"ketamaFlavor": flavor} on the ketama ring; the version it answers. */
    private long setFlavor(String flavor) {
        Response r = adminJson("{\"ketamaFlavor\":\"" + flavor + "\"}").put("/settings");
        assertThat(r.statusCode()).as("ketamaFlavor %s: %s", flavor, r.asString()).isEqualTo(200);
        return json(r).get("version").asLong();
    }

    /** The moved ranges of a diff, sorted by start. */
    record Ranges(long[] starts, long[] ends, String[] from, String[] to, long movedCount) {
        static Ranges of(JsonNode diff) {
            assertThat(diff.get("rangesTruncated").asBoolean()).isFalse();
            int n = diff.get("ranges").size();
            Ranges r = new Ranges(new long[n], new long[n], new String[n], new String[n],
                    diff.get("movedCount").asLong());
            int i = 0;
            for (JsonNode range : diff.get("ranges")) {
                r.starts[i] = range.get("start").asLong();
                r.ends[i] = range.get("end").asLong();
                r.from[i] = range.get("from").asString();
                r.to[i] = range.get("to").asString();
                i++;
            }
            return r;
        }

        /** The range holding {@code hash}, or -1. */
        int indexOf(long hash) {
            return rangeOf(starts, ends, hash);
        }

        boolean holds(long hash) {
            return indexOf(hash) >= 0;
        }

        /** Up to {@code max} keys {@code prefix + i} whose hash is in a range (at most 2,000,000 tried). */
        List<String> probes(String prefix, int max) {
            List<String> out = new ArrayList<>();
            for (int i = 0; i < 2_000_000 && out.size() < max && movedCount > 0; i++) {
                if (holds(ketamaHash(prefix + i))) {
                    out.add(prefix + i);
                }
            }
            return out;
        }
    }

    /** Every key on exactly one server, and that server the node ringd routes it to at {@code version}. */
    private void assertPlacedAsRingdRoutes(Map<String, Server> placed, List<Member> members, long version) {
        assertThat(misplacedByRingd(placed, routes(List.copyOf(placed.keySet()), version), members))
                .as("keys not where ringd routes them").isEmpty();
    }

    /** The same through ringd's Java client, holding the ring in memory. */
    private void assertPlacedAsJavaClientRoutes(Map<String, Server> placed, List<Member> members, long version)
            throws InterruptedException {
        try (RingClient ring = RingClient.builder("http://127.0.0.1:" + port).metrics(false).build()) {
            assertThat(ring.awaitVersion(version, Duration.ofSeconds(20))).as("the client reaches v%d", version)
                    .isTrue();
            Map<String, String> routes = new HashMap<>();
            for (String key : placed.keySet()) {
                routes.put(key, ring.route(key));
            }
            assertThat(misplacedByRingd(placed, routes, members)).as("keys not where the Java client routes them")
                    .isEmpty();
        }
    }

    private static List<String> misplacedByRingd(Map<String, Server> placed, Map<String, String> routes,
            List<Member> members) {
        Map<String, Member> byId = new HashMap<>();
        members.forEach(m -> byId.put(m.id(), m));
        List<String> wrong = new ArrayList<>();
        for (String key : placed.keySet()) {
            Member m = byId.get(routes.get(key));
            if (m == null || !m.server().equals(placed.get(key))) {
                wrong.add(key + " on " + placed.get(key) + ", ringd: " + routes.get(key));
            }
        }
        return wrong;
    }

    private static Set<String> misplacedKeys(Map<String, Server> placed, Map<String, String> routes,
            List<Member> members) {
        Map<String, Server> byId = new HashMap<>();
        members.forEach(m -> byId.put(m.id(), m.server()));
        Set<String> wrong = new HashSet<>();
        placed.forEach((key, server) -> {
            if (!server.equals(byId.get(routes.get(key)))) {
                wrong.add(key);
            }
        });
        return wrong;
    }

    private static List<String> mismatches(Map<String, Server> placed, Map<String, Server> model) {
        List<String> wrong = new ArrayList<>();
        for (String key : placed.keySet()) {
            if (!placed.get(key).equals(model.get(key))) {
                wrong.add(key + " on " + placed.get(key) + ", the model: " + model.get(key));
            }
        }
        return wrong;
    }

    /**
     * Stores every key through {@code client}, then asks every server (all of them, members or
     * not) which keys it holds: each key must be on exactly one server with this store's value,
     * and no server may hold anything else (lru_crawler metadump). The answer: each key's server.
     */
    private static Map<String, Server> store(Client client, List<Member> members, String value) {
        return store(client, members, value, List.of());
    }

    private static Map<String, Server> store(Client client, List<Member> members, String value, List<String> extra) {
        memcached.flushAll();
        List<String> keys = new ArrayList<>(client.keys());
        keys.addAll(extra);
        client.store(members, keys, value);
        Map<String, Map<Server, String>> holders = memcached.holders(keys);
        Map<String, Server> placed = new LinkedHashMap<>();
        List<String> wrong = new ArrayList<>();
        for (String key : keys) {
            Map<Server, String> h = holders.getOrDefault(key, Map.of());
            if (h.size() != 1 || !h.values().iterator().next().equals(value)) {
                wrong.add(key + ": " + h);
            } else {
                placed.put(key, h.keySet().iterator().next());
            }
        }
        assertThat(wrong).as("keys %s stored not on exactly one server with value %s", client, value).isEmpty();
        Set<Server> memberServers = new HashSet<>();
        members.forEach(m -> memberServers.add(m.server()));
        for (Server s : memcached.servers()) {
            Set<String> expected = new HashSet<>();
            placed.forEach((k, server) -> {
                if (server.equals(s)) {
                    expected.add(k);
                }
            });
            assertThat(memcached.metadump(s)).as("every key on %s", s).isEqualTo(expected);
            if (!memberServers.contains(s)) {
                assertThat(expected).as("keys on %s, not a member", s).isEmpty();
            }
        }
        return placed;
    }

    // ------------------------------------------------------------------ ringd

    /** The ring reset to {@code hash=ketama} (with {@code flavor} when not null) and {@code members}; its version. */
    private long configure(String flavor, List<Member> members) {
        reset();
        ObjectNode settings = JSON.createObjectNode().put("hash", "ketama");
        if (flavor != null) {
            settings.put("ketamaFlavor", flavor);
        }
        Response s = adminJson(settings.toString()).put("/settings");
        assertThat(s.statusCode()).as("PUT /settings %s: %s", settings, s.asString()).isEqualTo(200);
        ArrayNode changes = JSON.createArrayNode();
        members.forEach(m -> changes.add(putChange(m)));
        Response r = batch(changes.toString());
        assertThat(r.statusCode()).as("members: %s", r.asString()).isEqualTo(200);
        return json(r).get("version").asLong();
    }

    private static ObjectNode putChange(Member m) {
        ObjectNode c = JSON.createObjectNode().put("op", "put").put("id", m.id()).put("weight", m.weight());
        if (m.hashKey() != null) {
            c.put("hashKey", m.hashKey());
        }
        return c;
    }

    /** POST /route at {@code version} (checked): each key's node. */
    private Map<String, String> routes(List<String> keys, long version) {
        ObjectNode body = JSON.createObjectNode();
        ArrayNode array = body.putArray("keys");
        keys.forEach(array::add);
        HttpResponse<String> r = send(HttpRequest.newBuilder(uri("/route")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8)));
        assertThat(r.statusCode()).as("POST /route: %s", r.body()).isEqualTo(200);
        JsonNode answer = json(r.body());
        assertThat(answer.get("version").asLong()).as("routes at the version checked").isEqualTo(version);
        Map<String, String> out = new HashMap<>();
        for (JsonNode route : answer.get("routes")) {
            out.put(route.get("key").asString(), route.get("node").asString());
        }
        assertThat(out).hasSize(keys.size());
        // the key hash ringd reports is the ketama hash this test computes
        for (String key : keys.subList(0, 20)) {
            assertThat(fastGet("/route/" + enc(key)).get("hash").asLong()).as("hash of %s", key)
                    .isEqualTo(ketamaHash(key));
        }
        return out;
    }

    /** GET /ownership at {@code version} (checked): each node's points. */
    private Map<String, Integer> ownershipPoints(long version) {
        JsonNode o = fastGet("/ownership");
        assertThat(o.get("version").asLong()).isEqualTo(version);
        Map<String, Integer> out = new TreeMap<>();
        o.get("nodes").forEach(n -> out.put(n.get("id").asString(), n.get("points").asInt()));
        return out;
    }

    /** GET /points as "hash node" lines, ascending. */
    private List<String> ringdPoints() {
        List<String> out = new ArrayList<>();
        for (JsonNode p : fastGet("/points").get("points")) {
            out.add(p.get("hash").asLong() + " " + p.get("node").asString());
        }
        return out;
    }

    // ------------------------------------------------------------------ the clients

    /** A server as one client configuration names it, and the ringd node that stands for it. */
    record Member(Server server, int weight, String id, String hashKey, InetSocketAddress address) {
        Member(Server server, int weight, String id, String hashKey) {
            this(server, weight, id, hashKey, server.address());
        }
    }

    /** Six servers, three on port 11211 and three on other ports: the weight sets' members. */
    static List<Server> mixed6() {
        List<Server> s = memcached.servers();
        return List.of(s.get(0), s.get(1), s.get(2), s.get(6), s.get(7), s.get(8));
    }

    /**
     * spymemcached, format SPYMEMCACHED, servers given by host name: it hashes
     * {@code name/ip:port}, each node's hashKey; the node ids are {@code prefix} and a number.
     */
    static List<Member> spyHashKeys(List<Server> servers, int[] weights, String prefix) {
        List<Member> out = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            Server s = servers.get(i);
            InetSocketAddress named = byName(s);
            String hashKey = named.getHostName() + "/" + named.getAddress().getHostAddress() + ":" + s.port();
            out.add(new Member(s, weights[i], prefix + memcached.servers().indexOf(s), hashKey, named));
        }
        return out;
    }

    /** How libmemcached and npm hashring name a server: {@code host}, or {@code host:port} for a port other than 11211. */
    static List<Member> libmemcachedNames(List<Server> servers, int[] weights) {
        List<Member> out = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            Server s = servers.get(i);
            out.add(new Member(s, weights[i], s.port() == MemcachedServers.DEFAULT_PORT ? s.host() : s.toString(),
                    null));
        }
        return out;
    }

    /** spymemcached, format SPYMEMCACHED, servers given by address: it hashes {@code address:port}. */
    static List<Member> spyAddresses(List<Server> servers, int[] weights) {
        List<Member> out = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            Server s = servers.get(i);
            out.add(new Member(s, weights[i], s.toString(), null, byAddress(s)));
        }
        return out;
    }

    /** spymemcached, format LIBMEMCACHED, servers given by host name: it hashes the name, {@code name:port} past 11211. */
    static List<Member> spyLibmemcachedNames(List<Server> servers, int[] weights) {
        List<Member> out = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            Server s = servers.get(i);
            InetSocketAddress named = byName(s);
            String name = named.getHostName();
            out.add(new Member(s, weights[i], s.port() == MemcachedServers.DEFAULT_PORT ? name : name + ":" + s.port(),
                    null, named));
        }
        return out;
    }

    /** An address given as an IP literal (no host name: spymemcached's SPYMEMCACHED format hashes "/ip:port" less the "/"). */
    static InetSocketAddress byAddress(Server s) {
        try {
            return new InetSocketAddress(InetAddress.getByAddress(InetAddress.getByName(s.host()).getAddress()),
                    s.port());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * An address resolved from a host name, as {@code new InetSocketAddress("cache-3.test", 11211)}
     * gives it once DNS answers: {@code localhost} for 127.0.0.1, {@code cache-N.test} for the
     * others (set here, so that no resolver is asked).
     */
    static InetSocketAddress byName(Server s) {
        try {
            byte[] ip = InetAddress.getByName(s.host()).getAddress();
            String name = s.host().equals("127.0.0.1") ? "localhost" : "cache-" + (ip[3] & 0xff) + ".test";
            return new InetSocketAddress(InetAddress.getByAddress(name, ip), s.port());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static int[] weights(int... w) {
        return w;
    }

    static int[] equalWeights(int n) {
        int[] w = new int[n];
        Arrays.fill(w, 1);
        return w;
    }

    private static Set<String> ids(List<Member> members) {
        Set<String> out = new HashSet<>();
        members.forEach(m -> out.add(m.id()));
        return out;
    }

    private static int weightOf(List<Member> members, String id) {
        return members.stream().filter(m -> m.id().equals(id)).findFirst().map(Member::weight).orElse(-1);
    }

    /** A memcached client that stores keys as an application would. */
    interface Client {
        void store(List<Member> members, List<String> keys, String value);

        /** The keys of {@link #keys} this client stores as they are (all of them, unless it has rules of its own). */
        default List<String> keys() {
            return keys;
        }

        /** pylibmc with {@code behaviors}. */
        static Client pylibmc(Map<String, Object> behaviors) {
            return new Client() {
                @Override
                public void store(List<Member> members, List<String> keys, String value) {
                    ObjectNode request = scriptRequest(members, keys, value);
                    ObjectNode b = request.putObject("behaviors");
                    behaviors.forEach((k, v) -> {
                        if (v instanceof Boolean bool) {
                            b.put(k, bool);
                        } else {
                            b.put(k, v.toString());
                        }
                    });
                    JsonNode answer = ClientScripts.pylibmc(request);
                    assertThat(answer.get("stored").asInt()).as("keys pylibmc stored").isEqualTo(keys.size());
                }

                @Override
                public String toString() {
                    return "pylibmc " + behaviors;
                }
            };
        }

        /** pylibmc with {@code ketama_weighted}: libmemcached's weighted ketama continuum and MD5 key hash. */
        static Client pylibmcWeighted() {
            return pylibmc(Map.of("ketama_weighted", true));
        }

        /** The npm memcached client, with its defaults. */
        static Client npm() {
            return new Client() {
                @Override
                public void store(List<Member> members, List<String> keys, String value) {
                    JsonNode answer = ClientScripts.npmMemcached(scriptRequest(members, keys, value));
                    assertThat(answer.get("stored").asInt()).as("keys npm memcached stored").isEqualTo(keys.size());
                }

                /**
                 * Not keys holding {@code $$}, {@code $&}, {@code $`} or {@code $'}: the client
                 * passes the key to String.replace as the replacement (lib/utils.js,
                 * validateArg), which reads those as patterns, so it stores such a key under
                 * another name ({@code a$&b} as {@code aa$&bb}) or sends a broken command.
                 */
                @Override
                public List<String> keys() {
                    return keys.stream().filter(k -> !NPM_REPLACEMENT_PATTERN.matcher(k).find()).toList();
                }

                @Override
                public String toString() {
                    return "npm memcached";
                }
            };
        }

        /** spymemcached's KetamaConnectionFactory with key format {@code format}, weighted or not. */
        static Client spymemcached(KetamaNodeKeyFormatter.Format format, boolean weighted) {
            return new Client() {
                @Override
                public void store(List<Member> members, List<String> keys, String value) {
                    MemcachedClient client = spyClient(format, weighted, members);
                    try {
                        awaitConnected(client);
                        List<Future<Boolean>> sets = new ArrayList<>(keys.size());
                        for (String key : keys) {
                            sets.add(client.set(key, 0, value));
                        }
                        for (int i = 0; i < sets.size(); i++) {
                            assertThat(sets.get(i).get(SPY_WAIT_SECONDS, TimeUnit.SECONDS)).as("set %s", keys.get(i))
                                    .isTrue();
                        }
                    } catch (Exception e) {
                        throw new AssertionError("spymemcached could not store every key", e);
                    } finally {
                        client.shutdown(5, TimeUnit.SECONDS);
                    }
                }

                @Override
                public String toString() {
                    return "spymemcached " + format + (weighted ? " weighted" : "");
                }
            };
        }
    }

    static MemcachedClient spyClient(KetamaNodeKeyFormatter.Format format, boolean weighted, List<Member> members) {
        Map<InetSocketAddress, Integer> weights = new HashMap<>();
        List<InetSocketAddress> addresses = new ArrayList<>();
        // descending ids: on a point two servers share, the last server given wins in spymemcached (its
        // TreeMap.put), and ringd gives it to the smallest id
        for (Member m : members.stream().sorted(Comparator.comparing(Member::id).reversed()).toList()) {
            addresses.add(m.address());
            if (weighted) {
                weights.put(m.address(), m.weight());
            }
        }
        ConnectionFactory factory = new KetamaConnectionFactory(DefaultConnectionFactory.DEFAULT_OP_QUEUE_LEN,
                DefaultConnectionFactory.DEFAULT_READ_BUFFER_SIZE,
                DefaultConnectionFactory.DEFAULT_OP_QUEUE_MAX_BLOCK_TIME, DefaultHashAlgorithm.KETAMA_HASH, format,
                weights);
        try {
            return new MemcachedClient(factory, addresses);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Waits (at most 10 s) until spymemcached is connected to every server. Its default failure
     * mode (Redistribute, MemcachedConnection.addOperation) sends a key whose server is not
     * connected yet to the next connected server of the key's sequence, so a write in the first
     * milliseconds can land elsewhere.
     */
    static void awaitConnected(MemcachedClient client) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!client.getNodeLocator().getAll().stream().allMatch(MemcachedNode::isActive)) {
            assertThat(System.nanoTime()).as("spymemcached connected to every server within 10 s").isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    /** spymemcached's continuum, read from its KetamaNodeLocator, as "hash node" lines with ringd's ids. */
    static List<String> spyContinuum(KetamaNodeKeyFormatter.Format format, boolean weighted, List<Member> members)
            throws Exception {
        MemcachedClient client = spyClient(format, weighted, members);
        try {
            return continuum(client.getNodeLocator(), members);
        } finally {
            client.shutdown(5, TimeUnit.SECONDS);
        }
    }

    /**
     * The continuum of spymemcached's KetamaNodeLocator without weights (format SPYMEMCACHED) over
     * {@code members}, built from nodes that only know their address: no server, no connection.
     */
    static List<String> spyLocatorContinuum(List<Member> members) throws Exception {
        List<MemcachedNode> nodes = new ArrayList<>();
        for (Member m : members) {
            InetSocketAddress address = m.address();
            nodes.add((MemcachedNode) Proxy.newProxyInstance(MemcachedNode.class.getClassLoader(),
                    new Class<?>[] {MemcachedNode.class}, (proxy, method, args) -> switch (method.getName()) {
                        case "getSocketAddress" -> address;
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == args[0];
                        case "toString" -> "node " + address;
                        default -> throw new UnsupportedOperationException(method.getName());
                    }));
        }
        return continuum(new net.spy.memcached.KetamaNodeLocator(nodes, DefaultHashAlgorithm.KETAMA_HASH), members);
    }

    private static List<String> continuum(NodeLocator locator, List<Member> members) throws Exception {
        Method nodes = locator.getClass().getDeclaredMethod("getKetamaNodes");
        nodes.setAccessible(true); // protected, in a final class: read as a check, never used to route
        @SuppressWarnings("unchecked")
        SortedMap<Long, MemcachedNode> continuum = (SortedMap<Long, MemcachedNode>) nodes.invoke(locator);
        Map<SocketAddress, String> idOf = new HashMap<>();
        members.forEach(m -> idOf.put(m.address(), m.id()));
        List<String> out = new ArrayList<>();
        continuum.forEach((hash, node) -> out.add(hash + " " + idOf.get(node.getSocketAddress())));
        return out;
    }

    static ObjectNode scriptRequest(List<Member> members, List<String> keys, String value) {
        ObjectNode request = JSON.createObjectNode();
        ArrayNode servers = request.putArray("servers");
        // ascending ids: on a point two servers share, libmemcached and hashring take the server given
        // first, and ringd the smallest id
        for (Member m : members.stream().sorted(Comparator.comparing(Member::id)).toList()) {
            servers.addObject().put("host", m.server().host()).put("port", m.server().port()).put("weight", m.weight());
        }
        ArrayNode k = request.putArray("keys");
        keys.forEach(k::add);
        request.put("value", value);
        return request;
    }

    // ------------------------------------------------------------------ hashes and models

    /** ringd's ketama key hash (docs/ring.md section 14): MD5, first 4 bytes little-endian. */
    static long ketamaHash(String key) {
        return md5LittleEndian(key.getBytes(StandardCharsets.UTF_8));
    }

    static long md5LittleEndian(byte[] bytes) {
        try {
            byte[] d = MessageDigest.getInstance("MD5").digest(bytes);
            return (d[3] & 0xffL) << 24 | (d[2] & 0xffL) << 16 | (d[1] & 0xffL) << 8 | d[0] & 0xffL;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * libhashkit's one-at-a-time hash. It reads each byte through C's {@code char}, which is
     * signed on x86-64 (a byte from 0x80 up is added as a negative number) and unsigned on
     * ARM64: non-ASCII keys hash differently on the two.
     */
    static long oneAtATime(byte[] bytes) {
        boolean signedChar = !System.getProperty("os.arch").equals("aarch64");
        int value = 0;
        for (byte b : bytes) {
            value += signedChar ? b : b & 0xff;
            value += value << 10;
            value ^= value >>> 6;
        }
        value += value << 3;
        value ^= value >>> 11;
        value += value << 15;
        return value & 0xffffffffL;
    }

    /** libmemcached's continuum without weights: 100 points per server, {@code hash(name-i)}, keys by the same hash. */
    static Map<String, Server> plainKetama(List<Member> members, ToLongFunction<byte[]> hash) {
        TreeMap<Long, Server> continuum = new TreeMap<>();
        for (Member m : members) {
            for (int i = 0; i < 100; i++) {
                continuum.putIfAbsent(hash.applyAsLong((m.id() + "-" + i).getBytes(StandardCharsets.UTF_8)),
                        m.server()); // a tie goes to the server added first, as libmemcached's sort leaves it
            }
        }
        Map<String, Server> out = new LinkedHashMap<>();
        for (String key : keys) {
            Map.Entry<Long, Server> e = continuum.ceilingEntry(hash.applyAsLong(key.getBytes(StandardCharsets.UTF_8)));
            out.put(key, (e != null ? e : continuum.firstEntry()).getValue());
        }
        return out;
    }

    /** The moved range holding {@code hash}, or -1: ranges sorted by start, disjoint. */
    static int rangeOf(long[] starts, long[] ends, long hash) {
        int lo = 0;
        int hi = starts.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (starts[mid] > hash) {
                hi = mid - 1;
            } else if (ends[mid] < hash) {
                lo = mid + 1;
            } else {
                return mid;
            }
        }
        return -1;
    }
}
