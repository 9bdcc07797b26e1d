package io.ringd.lookup;

import java.util.List;
import java.util.regex.Pattern;

import io.ringd.ring.HashRing;
import io.ringd.state.NodeLoads;
import io.ringd.web.problem.ApiException;

/**
 * Consistent hashing with bounded loads (docs/ring.md section 19; Mirrokni, Thorup
 * and Zadimoghaddam 2017): the first node of a key's preference order whose
 * load is at most {@code c} times the mean load, or the primary when none is.
 */
final class BoundedLoad {

    /*
     * Design note.
     *
     * The rule, exactly. mean = (sum of every member's load, in ascending id order) / members,
     * in double arithmetic, over every member, those that own no point included (0 without
     * members); limit = c * mean. The walk is HashRing.preference(key, nodeCount): p0 (the
     * route), p1, ... up to every node that owns a point. The answer is the first p_i with
     * load(p_i) <= limit, skipped = i; when there is none, p0, skipped = the length of the walk
     * (every node was passed over before falling back to the primary).
     *   - Mean zero (every load 0, a new ring, or no traffic): limit 0 and 0 <= 0, so p0
     *     answers with skipped 0, as plain /route does.
     *   - No ceiling: MTZ give each bin the integer capacity ceil(c * m / n) for m balls; here
     *     loads are decayed counts or reported values in any unit, and ceil would make the rule
     *     depend on that unit. load <= c * mean does not: scaling every load changes no answer.
     *     The key being placed is not counted in either side.
     *   - Weights are not in the rule: the mean is over members, as docs/ring.md section 19 says. A node of
     *     weight 2 gets twice the keys of plain hashing, and is held to the same limit as
     *     every other node.
     *   - The fallback happens only when some member owns no point: with c > 1 and every
     *     member in the walk, sum(loads) > members * c * mean = c * sum(loads) is impossible
     *     (in exact arithmetic; with c within a few ulps of 1 and equal loads, rounding of
     *     the mean can also bring it about).
     *
     * The walk. Skips are few (under one per key on average for c >= 1.2 even under Zipf(1.1)
     * traffic, and almost none under uniform traffic: BoundedLoadSimulation), so the
     * preference list is taken FIRST_PROBES nodes at a time, growing fourfold, rather than
     * whole: preference(key, n) is a prefix of preference(key, m) for n < m in every
     * placement (the clockwise walk of a ring, the forward walk of a Maglev table), which
     * BoundedLoadTest checks.
     */

    /** The smallest bound, excluded. */
    static final double MIN_BOUND = 1;
    /** The largest bound, included. */
    static final double MAX_BOUND = 10;
    /** The nodes of the preference order read first. */
    static final int FIRST_PROBES = 4;

    /** A plain decimal number: digits, an optional fraction, an optional exponent. */
    private static final Pattern NUMBER = Pattern.compile("[0-9]{1,20}(\\.[0-9]{1,40})?([eE][+-]?[0-9]{1,3})?");

    private BoundedLoad() {
    }

    /** The node that answers and how many nodes of the preference order were passed over. */
    record Choice(String node, int skipped) {
    }

    /**
     * The bound {@code c} of {@code ?bound=}: a decimal number with {@code 1 < c <= 10}.
     *
     * @throws ApiException (400) naming {@code bound}
     */
    static double parseBound(String text) {
        if (text == null || !NUMBER.matcher(text).matches()) {
            throw ApiException.badRequest("bound must be a number c with 1 < c <= 10: "
                    + (text == null || text.isEmpty() ? "(empty)" : ApiException.abbreviate(text)), "bound");
        }
        double c = Double.parseDouble(text);
        if (!(c > MIN_BOUND && c <= MAX_BOUND)) {
            throw ApiException.badRequest("bound must be a number c with 1 < c <= 10: " + text, "bound");
        }
        return c;
    }

    /**
     * The first node of the preference order of the key hashing to {@code hash}
     * whose load is at most {@code c} times the mean; the primary if none is.
     *
     * @throws io.ringd.ring.RingException.NoNodes on an empty ring
     */
    static Choice choose(HashRing ring, long hash, double c, NodeLoads.Reading loads) {
        double limit = c * loads.mean();
        int all = ring.nodeCount();
        int want = Math.min(FIRST_PROBES, Math.max(1, all));
        List<String> walk = ring.preferenceHash(hash, want, false);
        for (int i = 0;;) {
            for (; i < walk.size(); i++) {
                if (loads.load(walk.get(i)) <= limit) {
                    return new Choice(walk.get(i), i);
                }
            }
            if (walk.size() < want || want == all) {
                return new Choice(walk.get(0), walk.size()); // every node owning a point is over its bound
            }
            want = (int) Math.min((long) want * 4, all);
            walk = ring.preferenceHash(hash, want, false);
        }
    }
}
