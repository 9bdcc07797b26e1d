package io.ringd.web;

import org.springframework.stereotype.Component;

import io.ringd.ring.HashRing;
import io.ringd.state.RingService;
import io.ringd.state.VersionException;

/** Resolves a {@code version} parameter to a snapshot, naming the parameter in errors. */
@Component
public class Snapshots {

    private final RingService ring;

    public Snapshots(RingService ring) {
        this.ring = ring;
    }

    /** The current snapshot when {@code version} is {@code null}, else that version's. */
    public HashRing at(Long version, String field) {
        if (version == null) {
            return ring.current().ring();
        }
        if (version < 0) {
            throw new ApiException(Problems.BAD_REQUEST, field + " must be >= 0: " + version, field);
        }
        try {
            return ring.ringAt(version);
        } catch (VersionException.NotMade e) {
            throw new ApiException(Problems.VERSION_NOT_FOUND, e.getMessage(), field);
        } catch (VersionException.Gone e) {
            throw new ApiException(Problems.VERSION_GONE, e.getMessage(), field);
        }
    }
}
