package io.ringd;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

import io.ringd.ring.Handoff;
import io.ringd.ring.HashRing;
import io.ringd.state.RingHistory;

/**
 * docs/ring.md section 21 walked by brute force over kept versions rebuilt
 * one by one from their memberships: the answer a handoff lookup must give,
 * for the tests of the service and the client.
 */
public final class HandoffOracle {

    private final List<HashRing> rings = new ArrayList<>();
    private final List<Instant> times = new ArrayList<>();

    /** Every version of {@code history} from {@code from} (at least its oldest) to {@code to}. */
    public HandoffOracle(RingHistory history, long from, long to) {
        for (long v = Math.max(from, history.baseVersion()); v <= to; v++) {
            RingHistory.Version hv = history.at(v);
            rings.add(HashRing.of(hv.settings().toConfig(), v, hv.nodes()));
            times.add(history.committedAt(v));
        }
    }

    /** The versions held, oldest first. */
    public List<HashRing> rings() {
        return rings;
    }

    /** The handoff of {@code key} in a window starting at {@code since}. */
    public Handoff handoff(String key, Instant since) {
        int n = rings.size();
        int oldestWithin = n;
        for (int p = n - 1; p >= 0; p--) {
            Instant t = times.get(p);
            if (t == null || t.isBefore(since)) {
                break;
            }
            oldestWithin = p;
        }
        if (oldestWithin == n) {
            return null;
        }
        int from = Math.max(0, oldestWithin - 1);
        List<String> owner = new ArrayList<>();
        for (HashRing r : rings) {
            owner.add(r.isEmpty() ? null : r.route(key));
        }
        int movedAt = -1;
        for (int v = n - 1; v > from; v--) {
            if (!Objects.equals(owner.get(v), owner.get(v - 1))) {
                movedAt = v;
                break;
            }
        }
        if (movedAt < 0) {
            return null;
        }
        LinkedHashSet<String> previous = new LinkedHashSet<>();
        for (int v = movedAt - 1; v >= from; v--) {
            String o = owner.get(v);
            if (o != null && !o.equals(owner.get(n - 1))) {
                previous.add(o);
            }
        }
        List<String> list = new ArrayList<>(previous);
        return new Handoff(rings.get(movedAt).version(), times.get(movedAt), list.subList(0, Math.min(8,
                list.size())));
    }
}
