package io.ringd.follow;

import java.util.concurrent.ConcurrentHashMap;

import io.ringd.state.RingService;
import io.ringd.state.RingState;
import io.ringd.state.VersionException;

/**
 * The fingerprints of a ring's kept versions, for checking what followers report
 * (docs/ring.md section 23): those it served, remembered as they are swapped in, else the
 * history's record, else the rebuilt snapshot's; pruned to the kept versions.
 */
final class VersionFingerprints {

    private final RingService service;
    private final ConcurrentHashMap<Long, String> fingerprints = new ConcurrentHashMap<>();

    VersionFingerprints(RingService service) {
        this.service = service;
    }

    /** {@code current} is the ring's state now. */
    void swapped(RingState current) {
        fingerprints.put(current.version(), current.fingerprint());
        long oldest = service.oldestVersion();
        if (fingerprints.size() > 64) {
            fingerprints.keySet().removeIf(v -> v < oldest);
        }
    }

    /**
     * The fingerprint of {@code version} when it is kept (a few are computed from the
     * history the first time they are asked for), or {@code null} when it is not kept or
     * cannot be worked out now (then {@code unknown} is set).
     */
    private String fingerprintAt(long version, RingState cur, boolean[] unknown) {
        if (version == cur.version()) {
            return cur.fingerprint();
        }
        if (version < service.oldestVersion() || version > cur.version()) {
            return null;
        }
        String known = fingerprints.get(version);
        if (known != null) {
            return known;
        }
        try {
            String recorded = version > service.oldestVersion()
                    ? service.history().delta(version).fingerprint() : null;
            String fp = recorded != null ? recorded : service.ringAt(version).fingerprint();
            fingerprints.put(version, fp);
            return fp;
        } catch (VersionException e) {
            return null; // the history moved past it meanwhile
        } catch (RuntimeException e) { // busy: checked again when read
            unknown[0] = true;
            return null;
        }
    }

    /**
     * Whether {@code fingerprint} is {@code version}'s: {@code true} for a version no
     * longer kept (it cannot be checked), {@code null} for a version this instance has not
     * made (yet) or cannot check now.
     */
    Boolean check(long version, String fingerprint, RingState cur) {
        if (version > cur.version()) {
            return null;
        }
        boolean[] unknown = new boolean[1];
        String fp = fingerprintAt(version, cur, unknown);
        if (fp == null) {
            return unknown[0] ? null : Boolean.TRUE;
        }
        return fp.equals(fingerprint);
    }
}
