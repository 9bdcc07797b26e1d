package io.ringd.follow;

import java.util.Map;

/**
 * One follower's latest report.
 *
 * @param id             the follower's id
 * @param version        the version it reported
 * @param fingerprint    the fingerprint it reported, kept only while it could not be checked (a version
 *                       newer than this instance's); {@code null} once {@code match} is known
 * @param match          whether the fingerprint is its version's ({@code true} also for a version no longer
 *                       kept, which cannot be checked); {@code null} while not known
 * @param reportedAt     when it reported last, epoch milliseconds
 * @param firstAt        when it first reported this version, epoch milliseconds
 * @param appliedSeconds from the version's commit to {@code firstAt}; {@code null} when the commit time is
 *                       not known
 * @param latencies      its recent p99 latency to each node, in milliseconds; empty when it reported none
 */
record FollowerEntry(String id, long version, String fingerprint, Boolean match, long reportedAt, long firstAt,
        Double appliedSeconds, Map<String, Double> latencies) {
}
