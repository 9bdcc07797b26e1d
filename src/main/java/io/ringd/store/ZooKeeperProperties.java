package io.ringd.store;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The ZooKeeper store ({@code ringd.store=zookeeper}): several ringd
 * instances share one ring.
 *
 * @param connect        the ensemble, {@code host:port,host:port,...}
 * @param path           the znode under which the ring lives (its state is {@code <path>/state})
 * @param sessionTimeout the ZooKeeper session timeout
 * @param connectTimeout how long a start-up or a write waits for a connection before giving up
 * @param lockWait       how long a write waits for its turn (the write lock) before it goes ahead without it,
 *                       guarded by the compare-and-set alone
 * @param newRingWait    how long an instance that finds neither a ring nor a running instance at the path
 *                       waits for one before it makes a new ring (by default the session timeout: after a
 *                       wipe of the ensemble, running instances need that long to come back)
 * @param maxStateBytes  the largest encoded (gzipped) state of one ring a write may store: a larger one is
 *                       refused before anything is written (from 1MB, all that one znode could ever hold,
 *                       to 1GB)
 */
@ConfigurationProperties("ringd.zookeeper")
public record ZooKeeperProperties(String connect, @DefaultValue("/ringd") String path,
        @DefaultValue("15s") Duration sessionTimeout, @DefaultValue("5s") Duration connectTimeout, @DefaultValue("1s") Duration lockWait,
        Duration newRingWait, @DefaultValue("64MB") DataSize maxStateBytes) {

    /** The default of {@code max-state-bytes}. */
    public static final DataSize DEFAULT_MAX_STATE = DataSize.ofMegabytes(64);

    public ZooKeeperProperties {
        if (path == null || !path.startsWith("/") || (path.length() > 1 && path.endsWith("/"))) {
            throw new IllegalArgumentException("ringd.zookeeper.path must be an absolute znode path such as /ringd: "
                    + path);
        }
        if (lockWait == null || lockWait.isNegative() || lockWait.compareTo(Duration.ofSeconds(60)) > 0) {
            throw new IllegalArgumentException("ringd.zookeeper.lock-wait must be from 0s to 60s: " + lockWait);
        }
        if (newRingWait == null) {
            newRingWait = sessionTimeout;
        }
        if (newRingWait.isNegative()) {
            throw new IllegalArgumentException("ringd.zookeeper.new-ring-wait must not be negative: " + newRingWait);
        }
        if (maxStateBytes == null) {
            maxStateBytes = DEFAULT_MAX_STATE;
        }
        if (maxStateBytes.compareTo(DataSize.ofMegabytes(1)) < 0 || maxStateBytes.compareTo(DataSize.ofGigabytes(1)) > 0) {
            throw new IllegalArgumentException("ringd.zookeeper.max-state-bytes must be from 1MB to 1GB: "
                    + maxStateBytes);
        }
    }
}
