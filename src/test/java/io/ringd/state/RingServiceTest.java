package io.ringd.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import io.ringd.ring.Change;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingException;
import io.ringd.store.MemoryRingStore;

class RingServiceTest {

    static RingService service(RingStore store, int history) {
        return new RingService(store, RingSettings.defaults(), history, List.of());
    }

    @Test
    void newService_isEmptyAtVersionZero() {
        RingService s = service(new MemoryRingStore(), 101);
        assertThat(s.current().version()).isZero();
        assertThat(s.current().ring().isEmpty()).isTrue();
        assertThatThrownBy(() -> s.current().ring().route("k")).isInstanceOf(RingException.NoNodes.class);
    }

    @Test
    void eachAcceptedChange_makesOneVersion_andNoOpsMakeNone() {
        RingService s = service(new MemoryRingStore(), 101);
        assertThat(s.put(Node.of("a", 1), null).created()).isTrue();
        assertThat(s.put(Node.of("a", 1.0), null).state().version()).isEqualTo(1);
        assertThat(s.put(Node.of("a", 1), null).created()).isFalse();
        assertThat(s.put(new Node("a", 1, "z"), null).state().version()).isEqualTo(2);
        assertThat(s.apply(List.of(Change.put(Node.of("b", 1)), Change.put(Node.of("c", 2))), null).version())
                .isEqualTo(3);
        assertThat(s.remove("b", null).version()).isEqualTo(4);
        assertThat(s.updateSettings(new SettingsPatch(null, null, null, null), null).version()).isEqualTo(4);
        assertThat(s.updateSettings(new SettingsPatch("murmur3", null, null, null), null).version()).isEqualTo(5);
        assertThat(s.current().settings().hash()).isEqualTo("murmur3");
    }

    @Test
    void refusedChanges_leaveTheStateAsItWas() {
        RingService s = service(new MemoryRingStore(), 101);
        s.put(Node.of("a", 1), null);
        RingState before = s.current();
        assertThatThrownBy(() -> s.remove("nope", null)).isInstanceOf(RingException.UnknownNode.class);
        assertThatThrownBy(() -> s.apply(List.of(Change.put(Node.of("b", 1)), Change.remove("zz")), null))
                .isInstanceOf(RingException.UnknownNode.class);
        assertThatThrownBy(() -> s.put(Node.of("b", 1), 0L)).isInstanceOf(VersionException.Mismatch.class);
        assertThatThrownBy(() -> s.updateSettings(new SettingsPatch("crc32", null, null, null), null))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("crc32");
        assertThatThrownBy(() -> s.updateSettings(new SettingsPatch(null, null, "jump", null), null))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> s.updateSettings(new SettingsPatch(null, null, null, 1010), null))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("prime");
        s.put(Node.of("huge", 10_000), null); // 1,280,000 points: within the limit
        assertThat(s.current().version()).isEqualTo(before.version() + 1);
        RingState mid = s.current();
        assertThatThrownBy(() -> s.updateSettings(new SettingsPatch(null, 4096, null, null), null))
                .isInstanceOf(RingException.LimitExceeded.class);
        assertThat(s.current()).isSameAs(mid);
    }

    @Test
    void ifMatch_ofTheCurrentVersion_applies() {
        RingService s = service(new MemoryRingStore(), 101);
        s.put(Node.of("a", 1), 0L);
        assertThat(s.remove("a", 1L).version()).isEqualTo(2);
    }

    @Test
    void history_answersKeptVersions_410ForOlder_404ForNeverMade() {
        RingService s = service(new MemoryRingStore(), 101);
        List<String> fingerprints = new ArrayList<>();
        fingerprints.add(s.current().fingerprint());
        for (int i = 0; i < 150; i++) {
            s.put(Node.of("n" + (i % 7), 1 + i % 3), null); // some are no-ops
            if (s.current().version() == fingerprints.size()) {
                fingerprints.add(s.current().fingerprint());
            }
        }
        long v = s.current().version();
        assertThat(v).isGreaterThan(101);
        assertThat(s.oldestVersion()).isEqualTo(v - 100);
        for (long old = v - 100; old <= v; old++) {
            HashRing r = s.ringAt(old);
            assertThat(r.version()).isEqualTo(old);
            assertThat(r.fingerprint()).as("version %d", old).isEqualTo(fingerprints.get((int) old));
        }
        assertThatThrownBy(() -> s.ringAt(v - 101)).isInstanceOf(VersionException.Gone.class);
        assertThatThrownBy(() -> s.ringAt(v + 1)).isInstanceOf(VersionException.NotMade.class);
    }

    @Test
    void restart_onTheSameStore_restoresVersionFingerprintAndHistory() {
        MemoryRingStore store = new MemoryRingStore();
        RingService first = service(store, 101);
        first.put(new Node("a", 1, "z1"), null);
        first.put(Node.of("b", 2), null);
        first.updateSettings(new SettingsPatch("sha256", 64, null, null), null);
        first.remove("a", null);
        RingService second = service(store, 101);
        assertThat(second.current().version()).isEqualTo(4);
        assertThat(second.current().fingerprint()).isEqualTo(first.current().fingerprint());
        assertThat(second.current().settings()).isEqualTo(first.current().settings());
        for (long v = 0; v <= 4; v++) {
            assertThat(second.ringAt(v).fingerprint()).isEqualTo(first.ringAt(v).fingerprint());
        }
    }

    @Test
    void aNewRing_drawsAnIncarnation_keptAcrossWritesAndRestarts() {
        MemoryRingStore store = new MemoryRingStore();
        RingService first = service(store, 101);
        String incarnation = first.current().incarnation();
        assertThat(incarnation).matches("[0-9a-f]{16}");
        first.put(Node.of("a", 1), null);
        assertThat(first.current().incarnation()).isEqualTo(incarnation);
        assertThat(store.load().orElseThrow().incarnation()).isEqualTo(incarnation);
        assertThat(service(store, 101).current().incarnation()).isEqualTo(incarnation);
        assertThat(service(new MemoryRingStore(), 101).current().incarnation()).isNotEqualTo(incarnation);
    }

    @Test
    void aStateStoredBeforeIncarnations_takesOneWhenFirstLoaded_andItIsWrittenBackOnce() {
        MemoryRingStore store = new MemoryRingStore();
        service(store, 101).put(Node.of("a", 1), null);
        PersistedState old = store.load().orElseThrow().withIncarnation(null);
        store.save(old);
        List<PersistedState> saved = new ArrayList<>();
        RingStore counting = new RingStore() {
            @Override
            public Optional<PersistedState> load() {
                return store.load();
            }

            @Override
            public void save(PersistedState state) {
                saved.add(state);
                store.save(state);
            }

            @Override
            public String describe() {
                return "counting";
            }
        };
        RingService migrated = service(counting, 101);
        String incarnation = migrated.current().incarnation();
        assertThat(incarnation).matches("[0-9a-f]{16}");
        assertThat(saved).hasSize(1);
        assertThat(saved.get(0)).isEqualTo(old.withIncarnation(incarnation));
        assertThat(service(counting, 101).current().incarnation()).isEqualTo(incarnation);
        assertThat(saved).as("written back once, not at every load").hasSize(1);
    }

    @Test
    void aMigrationTheStoreCannotTakeNow_isServedAnyway_andStoredByTheNextWrite() {
        MemoryRingStore store = new MemoryRingStore();
        service(store, 101).put(Node.of("a", 1), null);
        store.save(store.load().orElseThrow().withIncarnation(null));
        AtomicBoolean full = new AtomicBoolean(true);
        RingStore flaky = new RingStore() {
            @Override
            public Optional<PersistedState> load() {
                return store.load();
            }

            @Override
            public void save(PersistedState state) {
                if (full.get()) {
                    throw new StoreUnavailableException("disk full");
                }
                store.save(state);
            }

            @Override
            public String describe() {
                return "flaky";
            }
        };
        RingService service = service(flaky, 101);
        String incarnation = service.current().incarnation();
        assertThat(incarnation).matches("[0-9a-f]{16}");
        assertThat(store.load().orElseThrow().incarnation()).isNull();
        full.set(false);
        service.put(Node.of("b", 1), null);
        assertThat(store.load().orElseThrow().incarnation()).isEqualTo(incarnation);
    }

    @Test
    void aStateOfAnotherIncarnation_isNeverFollowed() {
        MemoryRingStore store = new MemoryRingStore();
        RingService service = service(store, 101);
        service.put(Node.of("a", 1), null);
        RingState before = service.current();
        MemoryRingStore otherStore = new MemoryRingStore();
        RingService otherService = service(otherStore, 101);
        for (int i = 0; i < 3; i++) {
            otherService.put(Node.of("y" + i, 1), null);
        }
        service.follow(otherStore.load().orElseThrow()); // version 3 of another history
        assertThat(service.current()).isEqualTo(before);
        assertThat(service.current().nodes()).containsExactly(Node.of("a", 1));
    }

    @Test
    void storeFailure_isRefused_andNothingChanges() {
        AtomicBoolean fail = new AtomicBoolean();
        MemoryRingStore inner = new MemoryRingStore();
        RingStore flaky = new RingStore() {
            @Override
            public Optional<PersistedState> load() {
                return inner.load();
            }

            @Override
            public void save(PersistedState state) {
                if (fail.get()) {
                    throw new StoreUnavailableException("disk full", null);
                }
                inner.save(state);
            }

            @Override
            public String describe() {
                return "flaky";
            }
        };
        RingService s = service(flaky, 101);
        s.put(Node.of("a", 1), null);
        RingState before = s.current();
        fail.set(true);
        assertThatThrownBy(() -> s.put(Node.of("b", 1), null)).isInstanceOf(StoreUnavailableException.class);
        assertThat(s.current()).isSameAs(before);
        assertThat(inner.load().orElseThrow().version()).isEqualTo(1);
        fail.set(false);
        assertThat(s.put(Node.of("b", 1), null).state().version()).isEqualTo(2);
        assertThat(s.ringAt(1).fingerprint()).isEqualTo(before.fingerprint());
    }

    @Test
    void concurrentWriters_loseNothing() throws Exception {
        RingService s = service(new MemoryRingStore(), 101);
        int threads = 8;
        int each = 50;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            done.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < each; i++) {
                    s.put(Node.of("t" + id + "-" + i, 1), null);
                    // readers in between see whole states only
                    RingState r = s.current();
                    assertThat(r.ring().version()).isEqualTo(r.version());
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : done) {
            f.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        assertThat(s.current().version()).isEqualTo(threads * each);
        assertThat(s.current().nodes()).hasSize(threads * each);
    }

    @Test
    void oldSnapshots_areCachedAFewAtATime() {
        RingService s = service(new MemoryRingStore(), 101);
        for (int i = 0; i < 10; i++) {
            s.put(Node.of("c" + i, 1), null);
        }
        for (long v = 0; v < 10; v++) {
            assertThat(s.ringAt(v)).isSameAs(s.ringAt(v)); // the second read is the cached one
            assertThat(s.cachedSnapshots()).isLessThanOrEqualTo(RingService.CACHED_SNAPSHOTS);
        }
        assertThat(s.cachedSnapshots()).isEqualTo(RingService.CACHED_SNAPSHOTS);
    }
}
