package io.ringd.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.ringd.state.PlanStore;
import io.ringd.state.StateUnreadableException;
import io.ringd.state.StoreUnavailableException;
import io.ringd.wire.PlanJson;
import io.ringd.wire.WireJson;
import tools.jackson.databind.json.JsonMapper;

/**
 * A ring's plans as its {@link PlanStore} keeps them: one document, newest
 * first, replaced by compare-and-set, at most {@code ringd.plans.keep} plans
 * (the oldest ended ones dropped first). Remembers the newest plan it read or
 * wrote, for the metrics.
 */
final class PlanBook {

    private static final int FORMAT = 1;

    private final PlanStore store;
    private final int keep;
    private final JsonMapper json = WireJson.strict();
    /** The newest plan, as last read or written. */
    private volatile PlanJson latest;

    PlanBook(PlanStore store, int keep) {
        this.store = Objects.requireNonNull(store, "store");
        this.keep = keep;
    }

    /** The plans stored, newest first, and the stamp to replace them with. */
    record Doc(List<PlanJson> plans, long stamp) {

        PlanJson find(String id) {
            for (PlanJson p : plans) {
                if (p.id().equals(id)) {
                    return p;
                }
            }
            return null;
        }

        /** The running or paused plan, or null. */
        PlanJson holding() {
            for (PlanJson p : plans) {
                if (PlanStates.holds(p)) {
                    return p;
                }
            }
            return null;
        }

        /** These plans with {@code plan} in place of the one of its id. */
        List<PlanJson> replacing(PlanJson plan) {
            List<PlanJson> out = new ArrayList<>(plans.size());
            for (PlanJson p : plans) {
                out.add(p.id().equals(plan.id()) ? plan : p);
            }
            return out;
        }
    }

    /** The plans stored now. */
    Doc read() {
        PlanStore.Stored s = store.read();
        if (s.document() == null) {
            return new Doc(List.of(), s.stamp());
        }
        PlanJson.Document d;
        try {
            d = json.readValue(s.document(), PlanJson.Document.class);
        } catch (RuntimeException e) {
            throw new StateUnreadableException(store.describe(), "the plans in " + store.describe()
                    + " cannot be read: " + e.getMessage(), e);
        }
        List<PlanJson> plans = d.plans() == null ? List.of() : List.copyOf(d.plans());
        remember(plans);
        return new Doc(plans, s.stamp());
    }

    /** Stores {@code plans} in place of {@code doc}'s. */
    void write(Doc doc, List<PlanJson> plans) {
        List<PlanJson> kept = new ArrayList<>(plans);
        for (int i = kept.size() - 1; i >= 0 && kept.size() > keep; i--) {
            if (!PlanStates.holds(kept.get(i))) {
                kept.remove(i);
            }
        }
        if (!store.write(json.writeValueAsBytes(new PlanJson.Document(FORMAT, kept)), doc.stamp())) {
            throw new StoreUnavailableException("the plans in " + store.describe() + " changed meanwhile",
                    "the plans were changed through another instance at the same moment: nothing was changed; "
                    + "try again", null);
        }
        remember(kept);
    }

    /** Stores {@code doc}'s plans with {@code plan} in place of the one of its id. */
    void replace(Doc doc, PlanJson plan) {
        write(doc, doc.replacing(plan));
    }

    private void remember(List<PlanJson> plans) {
        if (!plans.isEmpty()) {
            latest = plans.get(0);
        }
    }

    /** The newest plan as last read or written, or null. */
    PlanJson latest() {
        return latest;
    }
}
