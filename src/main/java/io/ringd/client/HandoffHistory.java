package io.ringd.client;

/**
 * What a {@link RingClient} holds for {@link RingClient#handoff(String)}: how many versions, from
 * which, and an estimate of their heap and their index's.
 *
 * @param versions      the versions held, the current one included (0 before the first ring)
 * @param oldestVersion the oldest held, or -1
 * @param bytes         an estimate of the heap they take beyond the current ring, index included
 */
public record HandoffHistory(int versions, long oldestVersion, long bytes) {
}
