package io.ringd.web.problem;

import java.util.List;
import java.util.function.BiFunction;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.ProblemDetail;

import io.ringd.ring.RingException;
import io.ringd.state.BusyException;
import io.ringd.state.InvalidInputException;
import io.ringd.state.MovementRefusedException;
import io.ringd.state.PlanRunningException;
import io.ringd.state.RingConflictException;
import io.ringd.state.RingNotFoundException;
import io.ringd.state.StateTooLargeException;
import io.ringd.state.StoreLostException;
import io.ringd.state.StoreUnavailableException;
import io.ringd.state.VersionException;

/**
 * The refusals of the ring and its service, each exception type named once
 * with the problem it is answered with. A refusal's {@code field} names the
 * input at fault; {@link Fields#named} can rename it, and the table says,
 * per type, whether a renamed field applies.
 */
final class Refusals {

    private static final Logger log = LoggerFactory.getLogger(Refusals.class);

    private static final List<Refusal<?>> ALL = List.of(
            new Refusal<>(ApiException.class,
                    (e, field) -> e.problem().detail(e.getMessage(), field != null ? field : e.field())),
            new Refusal<>(InvalidInputException.class,
                    (e, field) -> Problems.BAD_REQUEST.detail(e.getMessage(), field != null ? field : e.field())),
            new Refusal<>(RingException.NoNodes.class, (e, field) -> Problems.NO_NODES
                    .detail("the ring has no nodes: add one with PUT /nodes/{id}", null)),
            naming(RingException.UnknownNode.class, Problems.NODE_NOT_FOUND, "id"),
            new Refusal<>(RingException.LimitExceeded.class, (e, field) -> Problems.LIMIT_EXCEEDED
                    .detail(e.getMessage() + "; nothing was changed", field)),
            new Refusal<>(StateTooLargeException.class, (e, field) -> Problems.LIMIT_EXCEEDED
                    .detail(e.getMessage() + "; nothing was changed", null)),
            naming(RingException.InvalidBatch.class, Problems.BAD_REQUEST, "changes"),
            naming(RingException.DuplicatePlacement.class, Problems.BAD_REQUEST, "hashKey"),
            naming(RingNotFoundException.class, Problems.RING_NOT_FOUND, "ring"),
            naming(RingConflictException.class, Problems.RING_CONFLICT, "name"),
            new Refusal<>(MovementRefusedException.class, (e, field) -> movedTooMuch(e)),
            new Refusal<>(PlanRunningException.class, (e, field) -> planRunning(e)),
            naming(VersionException.Mismatch.class, Problems.PRECONDITION_FAILED, "If-Match"),
            naming(VersionException.NotMade.class, Problems.VERSION_NOT_FOUND, "version"),
            naming(VersionException.Gone.class, Problems.VERSION_GONE, "version"),
            new Refusal<>(StoreLostException.class, (e, field) -> Problems.STORE_LOST.detail(e.detail(), null)),
            new Refusal<>(StoreUnavailableException.class, (e, field) -> storeUnavailable(e)),
            new Refusal<>(BusyException.class, (e, field) -> Problems.BUSY.detail(e.getMessage(), null)));

    private Refusals() {
    }

    /**
     * The problem for {@code e}, when it is one of the refusals; {@code field},
     * when not {@code null}, names the input in place of the refusal's own.
     * {@code null} when {@code e} is no refusal.
     */
    static ProblemDetail problem(Throwable e, String field) {
        for (Refusal<?> r : ALL) {
            if (r.type().isInstance(e)) {
                return r.problem(e, field);
            }
        }
        return null;
    }

    /** A refusal answered with its message, naming {@code field} (or the input it was renamed to). */
    private static <E extends RuntimeException> Refusal<E> naming(Class<E> type, Problems problem, String field) {
        return new Refusal<>(type, (e, renamed) -> problem.detail(e.getMessage(), renamed != null ? renamed : field));
    }

    /**
     * The movement guard's 409: the share the write would move, the guard's, and the way past it, named
     * {@code force} (the parameter that makes it), as a {@code reseed-refused} names {@code replace}.
     */
    private static ProblemDetail movedTooMuch(MovementRefusedException e) {
        ProblemDetail p = Problems.MOVED_SHARE_EXCEEDED.detail("this change would move " + e.movedShare()
                + " of the hash space (" + e.movedCount() + " hash values), more than "
                + MovementRefusedException.SETTING + " allows (" + e.maxMovedShare() + "): nothing was changed. "
                + "Send it again with ?force=true to make it all the same, or make it in smaller changes", "force");
        p.setProperty("movedShare", e.movedShare());
        p.setProperty("movedCount", e.movedCount());
        p.setProperty("maxMovedShare", e.maxMovedShare());
        return p;
    }

    /** A write while a plan holds the ring: the plan named, as {@code plan}, and its state. */
    private static ProblemDetail planRunning(PlanRunningException e) {
        ProblemDetail p = Problems.PLAN_RUNNING.detail(e.getMessage(), "plan");
        p.setProperty("plan", e.planId());
        p.setProperty("planState", e.planState());
        return p;
    }

    private static ProblemDetail storeUnavailable(StoreUnavailableException e) {
        if (e.outcomeUnknown()) {
            log.error("Store unavailable while storing a change; it may have been stored", e);
            return Problems.STORE_UNAVAILABLE.detail("the store became unreachable while the change was being "
                    + "stored: it may or may not have been applied; read the ring (GET /ring) before trying again",
                    null);
        }
        if (e.detail() != null) {
            log.warn("A write was refused: {}", e.getMessage());
            return Problems.STORE_UNAVAILABLE.detail(e.detail(), null);
        }
        log.error("Store unavailable; the change was not applied", e);
        return Problems.STORE_UNAVAILABLE.detail("the change could not be made durable and was not applied", null);
    }

    /** One refusal: its exception type, and its problem given the field it was renamed to (or {@code null}). */
    private record Refusal<E extends Throwable>(Class<E> type, BiFunction<E, String, ProblemDetail> answer) {

        ProblemDetail problem(Throwable e, String field) {
            return answer.apply(type.cast(e), field);
        }
    }
}
