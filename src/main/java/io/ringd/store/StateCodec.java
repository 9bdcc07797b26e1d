package io.ringd.store;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import io.ringd.ring.Change;
import io.ringd.ring.Node;
import io.ringd.state.HistoryDelta;
import io.ringd.state.PlanMark;
import io.ringd.state.Incarnation;
import io.ringd.state.InvalidInputException;
import io.ringd.state.PersistedState;
import io.ringd.state.RingHistory;
import io.ringd.state.RingSettings;
import io.ringd.state.SettingsPatch;
import io.ringd.wire.ChangeJson;
import io.ringd.wire.NodeJson;
import io.ringd.wire.SettingsJson;
import io.ringd.wire.PlanMarkJson;
import io.ringd.wire.StateJson;
import io.ringd.wire.WireException;
import io.ringd.wire.WireJson;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonPointer;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.exc.InvalidTypeIdException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The stored form of a ring's state: UTF-8 JSON, {@code "format": 1}, the
 * wire form {@link StateJson}. Shared by every store so that state moves
 * between them unchanged. Commit times ({@code committedAt},
 * {@code baseCommittedAt}), the fingerprints of kept versions and the
 * incarnation are optional, so state written before they were kept still
 * loads.
 */
public final class StateCodec {

    /*
     * Reading is strict and order-blind. The file is bound to StateJson by a
     * strict mapper (WireJson.strict: no unknown field, no field twice, every
     * value of its JSON type), then every value is checked as it is turned
     * into the state, and a refusal names it by its path in the document
     * ("history.deltas[3].changes[0].weight"): a field missing, of the wrong
     * JSON type, unknown, or given twice; a value out of the contract's
     * limits (ids, weights, zones, settings); a node listed twice; versions
     * that are not contiguous. What order does not mean is not held against
     * a file: JSON fields come in any order, members in any order (they are
     * sorted by id), kept versions in any order (sorted by version), changes
     * of one version in any order (a version's changes never name an id
     * twice). Whether the history replays to the state is checked by
     * PersistedState.checkConsistent.
     */

    /** The format this codec writes and the only one it reads. */
    public static final int FORMAT = 1;

    private static final Pattern FINGERPRINT = Pattern.compile("[0-9a-f]{64}");

    private final JsonMapper json = WireJson.strictBuilder()
            .addMixIn(ChangeJson.Put.class, StateJson.StoredPutOrder.class)
            .build();

    public byte[] encode(PersistedState s) {
        RingHistory h = s.history();
        List<StateJson.Delta> deltas = new ArrayList<>(h.deltas().size());
        for (HistoryDelta d : h.deltas()) {
            deltas.add(new StateJson.Delta(d.version(), d.changes().stream().map(ChangeJson::of).toList(),
                    d.settings() == null ? null : d.settings().json(), time(d.committedAt()), d.fingerprint(),
                    d.plan() == null ? null : d.plan().json()));
        }
        return json.writeValueAsBytes(new StateJson(FORMAT, s.version(), s.incarnation(), s.settings().json(),
                NodeJson.all(s.nodes()),
                new StateJson.History(h.baseVersion(), h.baseSettings().json(), NodeJson.all(h.baseNodes()),
                        time(h.baseCommittedAt()), deltas)));
    }

    /**
     * Reads a stored state.
     *
     * @throws IllegalArgumentException saying what is wrong with it, and where
     */
    public PersistedState decode(byte[] bytes) {
        if (bytes.length == 0) {
            throw new IllegalArgumentException("the state is empty (0 bytes)");
        }
        JsonNode root;
        try {
            root = json.readTree(bytes);
        } catch (JacksonException e) {
            String where = e.getLocation() == null ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
            String message = e.getOriginalMessage();
            if (message != null && message.contains("end-of-input")) {
                message = "it ends early, truncated after " + bytes.length + " bytes (" + message + ")";
            }
            throw new IllegalArgumentException("not valid JSON" + where + ": " + message, e);
        }
        if (root == null || root.isMissingNode() || !root.isObject()) {
            throw new IllegalArgumentException("not a JSON object");
        }
        checkFormat(root.get("format"));
        StateJson doc;
        try {
            doc = json.treeToValue(root, StateJson.class);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(describe(e, root), e);
        }
        long version = nonNegative(doc.version(), "version", "");
        String incarnation = doc.incarnation();
        if (incarnation != null && !Incarnation.valid(incarnation)) {
            throw new IllegalArgumentException("incarnation must be 16 lowercase hex digits: \""
                    + abbreviate(incarnation) + "\"");
        }
        RingSettings settings = settings(required(doc.settings(), "settings", ""), "settings");
        List<Node> nodes = nodes(required(doc.nodes(), "nodes", ""), "nodes");

        StateJson.History h = required(doc.history(), "history", "");
        long baseVersion = nonNegative(h.baseVersion(), "baseVersion", "history");
        RingSettings baseSettings = settings(required(h.baseSettings(), "baseSettings", "history"),
                "history.baseSettings");
        List<Node> baseNodes = nodes(required(h.baseNodes(), "baseNodes", "history"), "history.baseNodes");
        Instant baseCommittedAt = instant(h.baseCommittedAt(), "history.baseCommittedAt");
        List<HistoryDelta> deltas = new ArrayList<>();
        List<StateJson.Delta> array = required(h.deltas(), "deltas", "history");
        for (int i = 0; i < array.size(); i++) {
            deltas.add(delta(array.get(i), "history.deltas[" + i + "]"));
        }
        checkVersions(version, baseVersion, deltas);
        return new PersistedState(version, settings, nodes,
                new RingHistory(baseVersion, baseSettings, baseNodes, deltas, baseCommittedAt), incarnation);
    }

    /** The format is read before anything else, so a newer file is refused for its format alone. */
    private static void checkFormat(JsonNode formatNode) {
        if (formatNode == null || formatNode.isNull()) {
            throw new IllegalArgumentException("missing field \"format\" (not a ringd state)");
        }
        if (!formatNode.isIntegralNumber() || !formatNode.canConvertToInt()) {
            throw new IllegalArgumentException("\"format\" must be an integer: " + formatNode);
        }
        int format = formatNode.intValue();
        if (format > FORMAT) {
            throw new IllegalArgumentException("format " + format + " was written by a newer ringd (this version"
                    + " reads format " + FORMAT + "): run that ringd, or restore a state written in format "
                    + FORMAT);
        }
        if (format != FORMAT) {
            throw new IllegalArgumentException("unknown format " + format + " (this version reads " + FORMAT + ")");
        }
    }

    /**
     * What the strict mapper refused, named by its path: a field this format
     * does not have (a misspelt or newer field never passes silently), an
     * unknown change op, or a value of the wrong JSON type, quoted from the file.
     */
    private static String describe(JacksonException e, JsonNode root) {
        String path = WireJson.path(e);
        if (e instanceof UnrecognizedPropertyException u) {
            String name = u.getPropertyName();
            String parent = path.equals(name) ? "" : path.endsWith("." + name)
                    ? path.substring(0, path.length() - name.length() - 1) : path;
            return "unknown field \"" + abbreviate(name) + "\"" + (parent.isEmpty() ? "" : " in " + parent)
                    + " (format " + FORMAT + " has " + sorted(u.getKnownPropertyIds()) + ")";
        }
        JsonPointer at = JsonPointer.empty();
        for (JacksonException.Reference r : e.getPath()) {
            at = r.getPropertyName() != null ? at.appendProperty(r.getPropertyName()) : at.appendIndex(r.getIndex());
        }
        JsonNode value = root.at(at);
        if (e instanceof InvalidTypeIdException) { // a change: its op says which
            if (!value.isObject()) {
                return path + " must be a JSON object: " + abbreviate(value.toString());
            }
            JsonNode op = value.get("op");
            if (op == null || op.isNull()) {
                return "missing field \"op\" in " + path;
            }
            return op.isString() ? path + ".op must be \"put\" or \"remove\": \"" + abbreviate(op.stringValue()) + "\""
                    : path + ".op must be a string: " + abbreviate(op.toString());
        }
        Class<?> target = e instanceof MismatchedInputException m ? m.getTargetType()
                : e instanceof InputCoercionException c ? c.getTargetType() : null;
        if (target != null) { // of the wrong JSON type, or out of range
            return path + " must be " + expected(target) + ": " + abbreviate(value.toString());
        }
        return (path.isEmpty() ? "" : path + ": ") + e.getOriginalMessage();
    }

    private static String expected(Class<?> type) {
        if (type == Long.class || type == long.class) {
            return "an integer >= 0"; // versions, the only longs of the format
        }
        if (type == Integer.class || type == int.class) {
            return "an integer";
        }
        if (type == Double.class || type == double.class) {
            return "a number";
        }
        if (type == String.class) {
            return "a string";
        }
        return Collection.class.isAssignableFrom(type) ? "a JSON array" : "a JSON object";
    }

    private static List<String> sorted(Collection<Object> names) {
        return names.stream().map(String::valueOf).sorted().toList();
    }

    /** Sorts the kept versions, then checks they run from baseVersion + 1 to version, each once. */
    private static void checkVersions(long version, long baseVersion, List<HistoryDelta> deltas) {
        if (baseVersion > version) {
            throw new IllegalArgumentException("history.baseVersion " + baseVersion + " is after the state's version "
                    + version);
        }
        deltas.sort(Comparator.comparingLong(HistoryDelta::version));
        for (int i = 1; i < deltas.size(); i++) {
            if (deltas.get(i).version() == deltas.get(i - 1).version()) {
                throw new IllegalArgumentException("history.deltas: version " + deltas.get(i).version()
                        + " is listed twice");
            }
        }
        long expected = baseVersion + 1;
        for (HistoryDelta d : deltas) {
            if (d.version() != expected) {
                throw new IllegalArgumentException("history.deltas: versions are not contiguous: version "
                        + expected + " is missing (the kept versions must run from history.baseVersion + 1 = "
                        + (baseVersion + 1) + " to version " + version + "; found " + d.version() + ")");
            }
            expected++;
        }
        if (expected - 1 != version) {
            throw new IllegalArgumentException("history.deltas end at version " + (expected - 1)
                    + " but the state is at version " + version);
        }
    }

    private static HistoryDelta delta(StateJson.Delta d, String path) {
        object(d, path);
        long v = nonNegative(d.version(), "version", path);
        String at = path + " (version " + v + ")";
        List<Change> changes = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        List<ChangeJson> array = required(d.changes(), "changes", path);
        for (int i = 0; i < array.size(); i++) {
            String p = path + ".changes[" + i + "]";
            Change change;
            try {
                change = object(array.get(i), p).toChange();
            } catch (WireException e) {
                throw new IllegalArgumentException(e.at(p), e);
            }
            if (!ids.add(change.id())) {
                throw new IllegalArgumentException(at + ": node \"" + change.id()
                        + "\" is changed twice in one version");
            }
            changes.add(change);
        }
        RingSettings settings = d.settings() == null ? null : settings(d.settings(), path + ".settings");
        if (changes.isEmpty() && settings == null) {
            throw new IllegalArgumentException(at + " has neither changes nor settings: every version changes "
                    + "something");
        }
        String f = d.fingerprint();
        if (f != null && !FINGERPRINT.matcher(f).matches()) {
            throw new IllegalArgumentException(path + ".fingerprint must be 64 lowercase hex digits: \""
                    + abbreviate(f) + "\"");
        }
        return new HistoryDelta(v, changes, settings, instant(d.committedAt(), path + ".committedAt"), f,
                plan(d.plan(), path + ".plan"));
    }

    private static PlanMark plan(PlanMarkJson p, String path) {
        if (p == null) {
            return null;
        }
        String id = required(p.id(), "id", path);
        int step = required(p.step(), "step", path);
        int of = required(p.of(), "of", path);
        if (step < 1 || step > of) {
            throw new IllegalArgumentException(path + ".step must be 1 to " + path + ".of (" + of + "): " + step);
        }
        return new PlanMark(id, step, of);
    }

    private static RingSettings settings(SettingsJson s, String path) {
        RingSettings settings = new RingSettings(required(s.hash(), "hash", path),
                required(s.vnodesPerWeight(), "vnodesPerWeight", path),
                required(s.algorithm(), "algorithm", path),
                required(s.maglevTableSize(), "maglevTableSize", path),
                s.ketamaFlavor() != null ? s.ketamaFlavor() : RingSettings.defaultFlavor(s.hash()));
        try {
            SettingsPatch.validate(settings);
        } catch (InvalidInputException e) {
            throw new IllegalArgumentException(path + "." + e.field() + ": " + e.getMessage(), e);
        }
        return settings;
    }

    /** Members in any order, sorted by id; an id listed twice is refused. */
    private static List<Node> nodes(List<NodeJson> list, String path) {
        Map<String, Integer> seen = new HashMap<>();
        List<Node> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            String p = path + "[" + i + "]";
            Node node;
            try {
                node = object(list.get(i), p).toNode();
            } catch (WireException e) {
                throw new IllegalArgumentException(e.at(p), e);
            }
            Integer first = seen.putIfAbsent(node.id(), i);
            if (first != null) {
                throw new IllegalArgumentException(path + ": node \"" + node.id() + "\" is listed twice (at "
                        + first + " and " + i + ")");
            }
            out.add(node);
        }
        out.sort(Comparator.comparing(Node::id));
        return out;
    }

    /** A commit time as a state file keeps it: {@link Instant#toString()}; null stays null. */
    private static String time(Instant t) {
        return t == null ? null : t.toString();
    }

    /** An optional commit time (absent in state written before commit times were kept). */
    private static Instant instant(String s, String path) {
        if (s == null) {
            return null;
        }
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(path + " is not a commit time (RFC 3339, UTC): "
                    + abbreviate(WireJson.lenient().writeValueAsString(s)), e);
        }
    }

    private static <T> T required(T value, String field, String path) {
        if (value == null) {
            throw new IllegalArgumentException("missing field \"" + field + "\""
                    + (path.isEmpty() ? "" : " in " + path));
        }
        return value;
    }

    /** An element of an array, which a JSON null leaves null. */
    private static <T> T object(T element, String path) {
        if (element == null) {
            throw new IllegalArgumentException(path + " must be a JSON object: null");
        }
        return element;
    }

    private static long nonNegative(Long value, String field, String path) {
        long v = required(value, field, path);
        if (v < 0) {
            throw new IllegalArgumentException((path.isEmpty() ? field : path + "." + field)
                    + " must be an integer >= 0: " + v);
        }
        return v;
    }

    private static String abbreviate(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }
}
