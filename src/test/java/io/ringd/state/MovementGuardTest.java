package io.ringd.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.diagnostics.FailureAnalysis;

import io.ringd.ring.Change;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.store.MemoryRingStore;

/**
 * The movement guard of the service's writes (docs/ring.md section 17): a write that is not forced and would
 * move more than {@code ringd.guard.max-moved-share} is refused with the exact share {@link HashRing#diff}
 * gives, checked against the state the write commits on, and nothing changes; a forced write passes; off
 * (the default) it refuses nothing and computes nothing.
 */
class MovementGuardTest {

    /** What the service tells its listeners: versions swapped and writes refused. */
    static final class Recorder implements RingListener {
        final List<Long> swapped = new ArrayList<>();
        final List<MovementRefusedException> refused = new ArrayList<>();
        final List<Op> refusedOps = new ArrayList<>();

        @Override
        public void ringSwapped(RingState previous, RingState current, Op op) {
            swapped.add(current.version());
        }

        @Override
        public void movementRefused(RingState current, Op op, MovementRefusedException refusal) {
            refused.add(refusal);
            refusedOps.add(op);
        }
    }

    static RingService guarded(RingStore store, double maxMovedShare, RingListener listener) {
        return new RingService(store, RingSettings.defaults(), 101, List.of(listener), Clock.systemUTC(),
                ExpensiveReads.unlimited(), new Snapshots(ExpensiveReads.unlimited()),
                MovementGuard.of(maxMovedShare), true);
    }

    static double share(HashRing from, HashRing to) {
        return HashRing.diff(from, to).movedShare();
    }

    @Test
    void aWriteOverTheGuard_isRefusedWithItsExactShare_andNothingChanges() {
        Recorder told = new Recorder();
        RingService s = guarded(new MemoryRingStore(), 0.3, told);
        s.apply(List.of(Change.put(Node.of("a", 1)), Change.put(Node.of("b", 1)), Change.put(Node.of("c", 1))),
                null, true);
        RingState before = s.current();
        RingHistory history = s.history();

        double small = share(before.ring(), before.ring().apply(List.of(Change.put(Node.of("d", 1)))));
        double large = share(before.ring(), before.ring().apply(List.of(Change.put(Node.of("e", 3)))));
        assertThat(small).as("a fourth node of weight 1").isLessThan(0.3);
        assertThat(large).as("a fourth node of weight 3").isGreaterThan(0.3);

        MovementRefusedException e = catchThrowableOfType(MovementRefusedException.class,
                () -> s.put(Node.of("e", 3), null));
        assertThat(e.movedShare()).isEqualTo(large);
        assertThat(e.movedCount()).isEqualTo(HashRing.diff(before.ring(),
                before.ring().apply(List.of(Change.put(Node.of("e", 3))))).movedCount());
        assertThat(e.maxMovedShare()).isEqualTo(0.3);
        assertThat(e.getMessage()).contains("ringd.guard.max-moved-share", "0.3", Double.toString(large));
        assertThat(s.current()).as("nothing swapped in").isSameAs(before);
        assertThat(s.history()).as("no history entry").isSameAs(history);
        assertThat(told.swapped).as("no version told").containsExactly(0L, 1L);
        assertThat(told.refused).containsExactly(e);
        assertThat(told.refusedOps).containsExactly(RingListener.Op.PUT);

        assertThat(s.put(Node.of("d", 1), null).state().version()).as("under the guard").isEqualTo(2);
        RingState withD = s.current();
        assertThatThrownBy(() -> s.apply(List.of(Change.remove("a"), Change.remove("b")), null))
                .isInstanceOf(MovementRefusedException.class);
        assertThatThrownBy(() -> s.updateSettings(new SettingsPatch("murmur3", null, null, null), null))
                .as("a new hash moves most of the space").isInstanceOf(MovementRefusedException.class);
        assertThat(s.current()).isSameAs(withD);
        assertThat(told.refusedOps).containsExactly(RingListener.Op.PUT, RingListener.Op.BATCH,
                RingListener.Op.SETTINGS);
    }

    @Test
    void aForcedWrite_passesWhateverItMoves_andNoOpsAreNeverChecked() {
        Recorder told = new Recorder();
        RingService s = guarded(new MemoryRingStore(), 0.05, told);
        assertThatThrownBy(() -> s.put(Node.of("a", 1), null))
                .as("the first node takes the whole space from no node, as /diff reports it")
                .isInstanceOf(MovementRefusedException.class)
                .satisfies(t -> assertThat(((MovementRefusedException) t).movedShare()).isEqualTo(1.0));
        assertThat(s.put(Node.of("a", 1), null, true).state().version()).isEqualTo(1);
        assertThat(s.put(Node.of("b", 1), null, true).state().version()).isEqualTo(2);
        assertThat(s.updateSettings(new SettingsPatch(null, null, "maglev", null), null, true).version())
                .isEqualTo(3);
        assertThat(s.remove("b", null, true).version()).isEqualTo(4);
        assertThat(s.put(Node.of("a", 1), null).state().version()).as("the same node again moves nothing")
                .isEqualTo(4);
        assertThat(s.updateSettings(new SettingsPatch(null, null, "maglev", null), null).version()).isEqualTo(4);
        assertThat(told.refused).hasSize(1);
    }

    @Test
    void theGuardOff_refusesNothing_andComputesNothing() {
        MovementGuard.OFF.check(null, null); // no ring is even looked at
        assertThat(MovementGuard.of(1)).isSameAs(MovementGuard.OFF);
        assertThat(MovementGuard.OFF.isOn()).isFalse();
        Recorder told = new Recorder();
        RingService s = new RingService(new MemoryRingStore(), RingSettings.defaults(), 101, List.of(told));
        assertThat(s.guard()).isSameAs(MovementGuard.OFF);
        s.put(Node.of("a", 1), null);
        s.updateSettings(new SettingsPatch("sha256", null, null, null), null);
        s.remove("a", null);
        assertThat(told.swapped).containsExactly(0L, 1L, 2L, 3L);
        assertThat(told.refused).isEmpty();
    }

    @Test
    void aShareEqualToTheGuard_passes_oneJustOverIsRefused() {
        HashRing two = HashRing.of(RingSettings.defaults().toConfig(), 1, List.of(Node.of("a", 1), Node.of("b", 1)));
        double moved = share(two, two.apply(List.of(Change.put(Node.of("c", 1)))));
        RingService exact = guarded(new MemoryRingStore(), moved, new Recorder());
        exact.apply(List.of(Change.put(Node.of("a", 1)), Change.put(Node.of("b", 1))), null, true);
        assertThat(exact.put(Node.of("c", 1), null).state().version()).as("moving exactly %s", moved)
                .isEqualTo(2);
        RingService under = guarded(new MemoryRingStore(), Math.nextDown(moved), new Recorder());
        under.apply(List.of(Change.put(Node.of("a", 1)), Change.put(Node.of("b", 1))), null, true);
        assertThatThrownBy(() -> under.put(Node.of("c", 1), null)).isInstanceOf(MovementRefusedException.class);
    }

    /**
     * With a shared store, a write is built and checked on the version stored when it runs, not on the one the
     * instance held when it was asked: here another instance removed a node first, so the same removal that
     * the old version would have allowed moves more, and is refused.
     */
    @Test
    void theGuardChecksTheVersionTheWriteCommitsOn_notTheOneItWasAskedAt() {
        SharedStore store = new SharedStore();
        Recorder told = new Recorder();
        RingService other = new RingService(store, RingSettings.defaults(), 101, List.of());
        other.apply(List.of(Change.put(Node.of("a", 1)), Change.put(Node.of("b", 1)), Change.put(Node.of("c", 2)),
                Change.put(Node.of("d", 1))), null);
        HashRing four = other.current().ring();
        HashRing three = four.apply(List.of(Change.remove("c")));
        double onFour = share(four, four.apply(List.of(Change.remove("d"))));
        double onThree = share(three, three.apply(List.of(Change.remove("d"))));
        assertThat(onFour).isLessThan(onThree);
        double limit = (onFour + onThree) / 2;

        RingService here = guarded(store, limit, told);
        assertThat(here.current().version()).isEqualTo(1);
        other.remove("c", null); // version 2, which this instance has not followed yet (no watch here)
        assertThat(here.current().version()).isEqualTo(1);

        MovementRefusedException e = catchThrowableOfType(MovementRefusedException.class,
                () -> here.remove("d", null));
        assertThat(e.movedShare()).as("d's share of the ring without c").isEqualTo(onThree);
        assertThat(here.current().version()).as("caught up, nothing more").isEqualTo(2);
        assertThat(store.load().orElseThrow().version()).isEqualTo(2);
        assertThat(here.remove("d", null, true).version()).isEqualTo(3);
    }

    @Test
    void theProperty_isFrom0ExcludedTo1_andAValueOutsideStopsTheStartNamingIt() {
        assertThat(bind(Map.of()).maxMovedShare()).as("the default: off").isEqualTo(1.0);
        assertThat(bind(Map.of()).guard()).isSameAs(MovementGuard.OFF);
        assertThat(bind(Map.of("ringd.guard.max-moved-share", "0.05")).guard().maxMovedShare()).isEqualTo(0.05);
        for (String bad : List.of("0", "-0.1", "1.5", "NaN", "Infinity")) {
            Throwable failure = catchThrowableOfType(BindException.class,
                    () -> bind(Map.of("ringd.guard.max-moved-share", bad)));
            FailureAnalysis report = new StartFailureAnalyzer().analyze(failure);
            assertThat(report).as(bad).isNotNull();
            assertThat(report.getDescription()).as(bad)
                    .startsWith("Invalid setting: ringd.guard.max-moved-share must be in (0, 1], 1 for off: ");
            assertThat(report.getAction()).contains("docs/settings.md");
        }
        assertThatThrownBy(() -> MovementGuard.of(0)).isInstanceOf(IllegalArgumentException.class);
    }

    private static GuardProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties))
                .bindOrCreate("ringd.guard", Bindable.of(GuardProperties.class));
    }

    /** A store shared with other writers: a save is a compare-and-set on the stored version. */
    static final class SharedStore implements RingStore {
        private final AtomicReference<PersistedState> state = new AtomicReference<>();

        @Override
        public Optional<PersistedState> load() {
            return Optional.ofNullable(state.get());
        }

        @Override
        public PersistedState create(PersistedState initial) {
            return state.compareAndSet(null, initial) ? initial : state.get();
        }

        @Override
        public void save(PersistedState s) {
            state.set(s);
        }

        @Override
        public synchronized void save(PersistedState s, long expectedVersion) {
            PersistedState stored = state.get();
            if (stored != null && stored.version() != expectedVersion) {
                throw new StoreConflictException(stored);
            }
            state.set(s);
        }

        @Override
        public boolean shared() {
            return true;
        }

        @Override
        public String describe() {
            return "shared memory";
        }
    }
}
