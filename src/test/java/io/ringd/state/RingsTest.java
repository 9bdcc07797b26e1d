package io.ringd.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import io.ringd.ring.Node;
import io.ringd.store.MemoryRingStores;

/** The registry of rings (docs/ring.md section 22) without a server. */
class RingsTest {

    /** Memory stores whose delete fails while {@code refuse} is set. */
    private static final class Refusing implements RingStores {
        final MemoryRingStores inner = new MemoryRingStores();
        final AtomicBoolean refuse = new AtomicBoolean();

        @Override
        public RingStore store(String name) {
            return inner.store(name);
        }

        @Override
        public Set<String> names() {
            return inner.names();
        }

        @Override
        public void create(String name, PersistedState initial) {
            inner.create(name, initial);
        }

        @Override
        public void delete(String name) {
            if (refuse.get()) {
                throw new StoreUnavailableException("the store is out of reach");
            }
            inner.delete(name);
        }

        @Override
        public String describe() {
            return "refusing memory";
        }
    }

    private static Rings rings(RingStores stores, int max) {
        return new Rings(stores, RingSettings.defaults(), 101, List.of(), List.of(), Clock.systemUTC(),
                ExpensiveReads.unlimited(), new HandoffProperties(Duration.ofMinutes(10)), max);
    }

    @Test
    void aDeleteTheStoreRefuses_leavesTheRingServedAndWritable() {
        Refusing stores = new Refusing();
        Rings rings = rings(stores, 10);
        RingService s = rings.create("kept", null).service();
        s.put(new Node("a", 1, null), null);
        stores.refuse.set(true);
        assertThatThrownBy(() -> rings.delete("kept")).isInstanceOf(StoreUnavailableException.class);
        assertThat(rings.get("kept").service()).isSameAs(s);
        assertThat(s.isDeleted()).isFalse();
        assertThat(s.put(new Node("b", 1, null), null).state().version()).isEqualTo(2);
        stores.refuse.set(false);
        rings.delete("kept");
        assertThatThrownBy(() -> rings.get("kept")).isInstanceOf(RingNotFoundException.class);
        assertThatThrownBy(() -> s.put(new Node("c", 1, null), null)).isInstanceOf(RingNotFoundException.class);
    }

    @Test
    void namesAndLimits_areCheckedBeforeAnythingIsStored() {
        Refusing stores = new Refusing();
        Rings rings = rings(stores, 2);
        assertThatThrownBy(() -> rings.create("Bad", null)).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> rings.create("default", null)).isInstanceOf(RingConflictException.class);
        rings.create("one", null);
        assertThatThrownBy(() -> rings.create("two", null)).isInstanceOf(RingConflictException.class)
                .hasMessageContaining("at most 2");
        assertThat(stores.names()).containsExactly("one");
        assertThatThrownBy(() -> rings.delete("default")).isInstanceOf(RingConflictException.class);
        assertThat(rings.all()).extracting(ServedRing::name).containsExactly("default", "one");
    }
}
