package io.ringd.client;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import io.ringd.ring.Change;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;
import io.ringd.wire.ChangeEventJson;
import io.ringd.wire.ChangeJson;
import io.ringd.wire.NodeJson;
import io.ringd.wire.PlanMarkJson;
import io.ringd.wire.RingJson;
import io.ringd.wire.SettingsJson;
import io.ringd.wire.WireException;
import io.ringd.wire.WireJson;
import io.ringd.wire.WireTime;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.exc.InvalidTypeIdException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;

/**
 * The server's answers a client reads (docs/ring.md sections 17 and 20): the
 * {@code GET /ring} body, which is also the data of a {@code snapshot}
 * event, and the data of a {@code change} event, read as their wire forms
 * ({@link RingJson}, {@link ChangeEventJson}). Reading is strict about
 * what building the ring needs and ignores fields it does not use. What only
 * describes a version is read leniently: an unreadable {@code committedAt} is
 * no time, and a {@code plan} mark (docs/ring.md section 24) that is not an
 * object with a non-empty string {@code id} and integers
 * {@code 1 <= step <= of} is no plan step, so a server that sends something
 * else there never stops the client from following the ring.
 */
final class RingMessages {

    private static final System.Logger LOG = System.getLogger(RingClient.class.getName());

    /** The lenient wire mapper, a {@code plan} mark read by {@link LenientPlanMark}. */
    private static final JsonMapper JSON = WireJson.lenient().rebuild()
            .addModule(new SimpleModule("ringd-client-plan-mark").addDeserializer(PlanMarkJson.class,
                    new LenientPlanMark()))
            .build();

    private static final Pattern FINGERPRINT = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern INCARNATION = Pattern.compile("[0-9a-f]{16}");

    private RingMessages() {
    }

    /** A message that is not what the protocol says; the client reloads rather than guess. */
    static class BadMessage extends Exception {
        BadMessage(String message) {
            super(message);
        }

        BadMessage(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * A whole ring: the body of {@code GET /ring} and the data of a {@code snapshot} event;
     * {@code incarnation} is null from a server that does not send it.
     */
    record Snapshot(long version, String fingerprint, SettingsJson settings, List<Node> nodes, Instant committedAt,
            String incarnation) {

        /**
         * The ring this snapshot describes, built with the library, only if
         * its fingerprint is the server's.
         *
         * @throws BadMessage if the library refuses it or the fingerprints differ
         */
        HashRing build() throws BadMessage {
            HashRing ring;
            try {
                ring = HashRing.of(settings.toConfig(), version, nodes);
            } catch (RuntimeException e) {
                throw new BadMessage("cannot build the ring of version " + version + ": " + e.getMessage(), e);
            }
            return checked(ring, fingerprint);
        }
    }

    /**
     * The data of a {@code change} event: what turns version - 1 into version, in the ring {@code incarnation};
     * {@code plan} is the plan step the version is, or null.
     */
    record ChangeEvent(long version, Instant committedAt, String fingerprint, List<Change> changes,
            SettingsJson settings, String incarnation, PlanStep plan) {

        /**
         * {@code previous} (at {@code version - 1}) with these changes and
         * settings, at {@code version}, only if its fingerprint is the server's.
         *
         * @throws BadMessage if the library refuses a change or the fingerprints differ
         */
        HashRing applyTo(HashRing previous) throws BadMessage {
            HashRing next;
            try {
                RingConfig config = settings == null ? previous.config() : settings.toConfig();
                next = previous.apply(changes, config, version);
            } catch (RuntimeException e) {
                throw new BadMessage("cannot apply version " + version + ": " + e.getMessage(), e);
            }
            return checked(next, fingerprint);
        }
    }

    private static HashRing checked(HashRing ring, String fingerprint) throws BadMessage {
        if (!ring.fingerprint().equals(fingerprint)) {
            throw new Mismatch(ring.version(), ring.fingerprint(), fingerprint);
        }
        return ring;
    }

    /** A ring built from the server's answer whose fingerprint is not the server's: this client routes otherwise. */
    static final class Mismatch extends BadMessage {
        final long version;
        final String built;

        Mismatch(long version, String built, String server) {
            super("fingerprint mismatch at version " + version + ": built " + built + ", the server has " + server);
            this.version = version;
            this.built = built;
        }
    }

    static Snapshot snapshot(String json) throws BadMessage {
        RingJson r = parse(json, RingJson.class);
        List<Node> nodes = each(required(r.nodes(), "nodes"), "nodes", NodeJson::toNode);
        return new Snapshot(version(r.version()), fingerprint(r.fingerprint()), required(r.settings(), "settings"),
                List.copyOf(nodes), WireTime.parseOrNull(r.committedAt()), incarnation(r.incarnation()));
    }

    static ChangeEvent change(String json) throws BadMessage {
        ChangeEventJson c = parse(json, ChangeEventJson.class);
        List<Change> changes = each(required(c.changes(), "changes"), "changes", ChangeJson::toChange);
        long version = version(c.version());
        return new ChangeEvent(version, WireTime.parseOrNull(c.committedAt()), fingerprint(c.fingerprint()),
                List.copyOf(changes), c.settings(), incarnation(c.incarnation()), planStep(c.plan(), version));
    }

    /** The plan step a mark names, or null when there is none or it is not one (logged at DEBUG). */
    static PlanStep planStep(PlanMarkJson m, long version) {
        if (m == null) {
            return null;
        }
        if (m.id() == null || m.id().isEmpty() || m.step() == null || m.of() == null || m.step() < 1
                || m.step() > m.of()) {
            LOG.log(System.Logger.Level.DEBUG, "ringd client: the plan mark of version {0} is not a plan step, "
                    + "ignored: id {1}, step {2} of {3}", version, m.id() == null ? null : abbreviate(m.id()),
                    m.step(), m.of());
            return null;
        }
        return new PlanStep(m.id(), m.step(), m.of());
    }

    /**
     * Reads a {@code plan} mark without ever failing the event: its {@code id} if a string, its {@code step}
     * and {@code of} if integers that fit an int, each null otherwise; and an empty mark (all null) for
     * anything that is not an object, so {@link #planStep} ignores it.
     */
    private static final class LenientPlanMark extends ValueDeserializer<PlanMarkJson> {
        @Override
        public PlanMarkJson deserialize(JsonParser p, DeserializationContext ctxt) {
            JsonNode n = ctxt.readTree(p);
            if (n == null || !n.isObject()) {
                return new PlanMarkJson(null, null, null);
            }
            JsonNode id = n.get("id");
            return new PlanMarkJson(id != null && id.isString() ? id.asString() : null, integer(n.get("step")),
                    integer(n.get("of")));
        }

        private static Integer integer(JsonNode v) {
            return v != null && v.isIntegralNumber() && v.canConvertToInt() ? v.intValue() : null;
        }
    }

    private static String abbreviate(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }

    /**
     * Whether a 404 answer's body is the problem of a ring the server does
     * not have (docs/ring.md section 22: {@code "field":"ring"}, type
     * {@code urn:ringd:problem:ring-not-found}): its {@code detail} (empty if
     * none) if so, else null.
     */
    static String ringNotFound(String body) {
        if (!body.stripLeading().startsWith("{")) {
            return null;
        }
        JsonNode p;
        try {
            p = WireJson.lenient().readTree(body);
        } catch (JacksonException e) {
            return null;
        }
        if (p == null || !p.isObject()) {
            return null;
        }
        boolean ring = "ring".equals(p.path("field").asString(""))
                || p.path("type").asString("").endsWith(":ring-not-found");
        if (!ring) {
            return null;
        }
        String detail = p.path("detail").asString("");
        return detail.length() > 300 ? detail.substring(0, 300) + "..." : detail;
    }

    private static <T> T parse(String json, Class<T> form) throws BadMessage {
        if (!json.stripLeading().startsWith("{")) {
            throw new BadMessage("not a JSON object");
        }
        try {
            return JSON.readValue(json, form);
        } catch (StreamReadException e) {
            throw new BadMessage("not JSON: " + e.getOriginalMessage(), e);
        } catch (InvalidTypeIdException e) {
            throw new BadMessage(WireJson.path(e) + ": unknown op: " + e.getTypeId(), e);
        } catch (JacksonException e) {
            throw new BadMessage(WireJson.path(e) + ": " + e.getOriginalMessage(), e);
        }
    }

    /** Each element of the array {@code field} read into the library's form; a refusal names the element. */
    private static <J, T> List<T> each(List<J> list, String field, java.util.function.Function<J, T> read)
            throws BadMessage {
        List<T> out = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            String at = field + "[" + i + "]";
            try {
                out.add(read.apply(required(list.get(i), at)));
            } catch (WireException e) {
                throw new BadMessage(e.at(at), e);
            }
        }
        return out;
    }

    private static <T> T required(T value, String field) throws BadMessage {
        if (value == null) {
            throw new BadMessage(field + " is required");
        }
        return value;
    }

    private static long version(Long v) throws BadMessage {
        if (v == null || v < 0) {
            throw new BadMessage("version must be a non-negative integer: " + v);
        }
        return v;
    }

    /** An incarnation (docs/ring.md section 20), or null when the server sent none. */
    private static String incarnation(String i) throws BadMessage {
        if (i != null && !INCARNATION.matcher(i).matches()) {
            throw new BadMessage("incarnation must be 16 lowercase hex digits: " + i);
        }
        return i;
    }

    private static String fingerprint(String f) throws BadMessage {
        if (f == null || !FINGERPRINT.matcher(f).matches()) {
            throw new BadMessage("fingerprint must be 64 lowercase hex digits: " + f);
        }
        return f;
    }
}
