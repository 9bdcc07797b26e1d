package io.ringd.lookup;

/**
 * The words of lookup's part of the API description, in one place: what
 * each call answers and what its parameters and refusals mean. What every
 * operation shares (the ring headers, 401, 406, 415, the problem body) is
 * added by the web layer from what the controller declares.
 */
final class LookupDocs {

    static final String TAG = "lookup";
    static final String TAG_TEXT = "Where a key lives and which replicas hold it";

    static final String KEY = "The key, any UTF-8 string of 1 to 4096 bytes, percent-encoded: every byte "
            + "outside A-Z a-z 0-9 - . _ ~ as %XX (a '/' is %2F, a ';' is %3B). Send a key that is exactly '.' or '..' "
            + "as %2E or %2E%2E, or as ?key=: many HTTP clients normalize such path segments away.";
    static final String KEY_FORM = "The key, form-encoded";
    static final String VERSION = "Answer at this older version (kept: at least the last 100); "
            + "the current one when absent.";
    static final String BOUND = "Bounded load: answer the first node of the key's preference order whose load "
            + "is at most bound times the mean load over all nodes (the primary if none is), and say how many "
            + "nodes were skipped. A number c with 1 < c <= 10. Loads are each node's decayed count of routed "
            + "keys, or the load reported with PUT /nodes/{id}/load (see GET /loads). Answers at the current "
            + "version only: with a version other than the current one, 400.";
    static final String EXPLAIN = "Also say why: the ring point that owns the key's hash (its hash and vnode "
            + "label X#i) and the arc of hash values it owns, from one past the previous point to the point "
            + "itself, wrapping past 2^32-1; for a Maglev table, the entry (hash mod M) and the hash values it "
            + "holds. With bound, it explains the key's own point (the first node of its preference order).";
    static final String HANDOFF = "Also say who held the key before (docs/ring.md section 21): handoff is "
            + "null when the key's owner did not change within the window, else {movedAt, movedAtTime, previous}: "
            + "the newest version at which its owner changed, its commit time, and the distinct earlier owners, "
            + "newest first, at most 8, never the current owner. At the current version only: with a version "
            + "other than the current one, 400. With bound, it is the history of the key's own owner (the first "
            + "node of its preference order), whichever node answers.";
    static final String WINDOW = "With handoff=true: a window shorter than ringd.handoff.window (10 minutes by "
            + "default), an ISO-8601 duration such as PT30S. Versions committed this long ago or later count.";
    static final String N = "How many nodes, 1 to 10000";
    static final String DISTINCT_ZONES = "Prefer nodes of distinct zones";

    static final String ROUTE = "The node that owns a key";
    static final String ROUTE_TEXT = "The owner of the first ring point at or after the key's hash, wrapping "
            + "past the last point. With bound, the first node of the key's preference order within its bound, "
            + "and skipped. With explain=true, the owning point, its vnode label and its arc (for a Maglev table, "
            + "the entry and its hash values). With handoff=true, who held the key before, within the window.";
    static final String ROUTE_QUERY = "The node that owns a key given as ?key=";
    static final String ROUTE_QUERY_TEXT = "The same answer as /route/{key}, bound, explain and handoff included; the key "
            + "is form-decoded ('+' is a space).";
    static final String ROUTE_BATCH = "The owners of many keys";
    static final String ROUTE_BATCH_TEXT = "1 to 10,000 keys, answered in request order, all at one version. "
            + "With \"handoff\":true each route adds its handoff (see GET /route/{key}), within \"window\" when "
            + "given.";
    static final String ROUTE_BATCH_EXAMPLE = "{\"keys\":[\"user:42\",\"user/43\"]}";
    static final String PREFERENCE = "The replicas of a key";
    static final String PREFERENCE_TEXT = "Up to n distinct nodes clockwise from the key's hash; element 0 is the "
            + "route. With distinctZones, nodes of zones not yet taken come first.";
    static final String PREFERENCE_QUERY = "The replicas of a key given as ?key=";
    static final String PREFERENCE_QUERY_TEXT = "The same answer as /preference/{key}.";

    static final String OWNER = "The owner";
    static final String OWNERS = "The owners, in request order";
    static final String PREFERENCE_LIST = "The preference list";
    static final String BAD_ROUTE = "Bad key, version, bound or window, or bound or handoff with an older version";
    static final String BAD_PREFERENCE = "Bad key, n or version";
    static final String BAD_BATCH = "Bad body, key or window";
    static final String TOO_LARGE = "Body over 4 MiB";
    static final String NOT_MADE = "Version never made";
    static final String GONE = "Version no longer kept";
    static final String EMPTY_VERSION = "The version asked for had no nodes";
    static final String NO_NODES = "The ring has no nodes";
    static final String NO_NODES_OR_BUSY = "The ring has no nodes (no-nodes); or busy, with Retry-After: an old "
            + "version to rebuild, a heavy node's labels to hash for explain, or the version's handoff index to "
            + "build, while too many expensive reads run";

    private LookupDocs() {
    }
}
