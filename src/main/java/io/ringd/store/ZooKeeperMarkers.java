package io.ringd.store;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ringd.state.Incarnation;
import io.ringd.state.StoreUnavailableException;

/**
 * The instance markers of one ring's path in ZooKeeper: {@code <ring>/instances/<id>}, an ephemeral znode per
 * serving instance holding the incarnation it serves (see the design note of {@link ZooKeeperRingStore}).
 */
final class ZooKeeperMarkers {

    private static final Logger log = LoggerFactory.getLogger(ZooKeeperMarkers.class);

    private final CuratorFramework client;
    private final String instancesPath;
    private final String markerPath;
    /**
     * Whether the ring's own path is made again for a marker: for the ring {@code default}, whose path may
     * be wiped and must then show that instances still serve it; never for a named ring, whose path goes
     * only when it is deleted (docs/ring.md section 22), and which a marker must not bring back.
     */
    private final boolean makeParents;

    ZooKeeperMarkers(CuratorFramework client, String instancesPath, boolean makeParents) {
        this.client = client;
        this.instancesPath = instancesPath;
        this.markerPath = instancesPath + "/" + Incarnation.random();
        this.makeParents = makeParents;
    }

    /** Puts this instance's marker, holding {@code incarnation}, back when it is missing. */
    void ensure(String incarnation) {
        byte[] data = incarnation.getBytes(StandardCharsets.UTF_8);
        try {
            if (makeParents) {
                client.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(markerPath, data);
                return;
            }
            try {
                client.create().withMode(CreateMode.EPHEMERAL).forPath(markerPath, data);
            } catch (KeeperException.NoNodeException e) {
                try {
                    client.create().forPath(instancesPath); // only under a ring that is there
                } catch (KeeperException.NodeExistsException again) {
                    // made meanwhile
                }
                client.create().withMode(CreateMode.EPHEMERAL).forPath(markerPath, data);
            }
        } catch (KeeperException.NodeExistsException e) {
            // there already
        } catch (KeeperException.NoNodeException e) {
            log.debug("No marker {}: the ring's path is gone", markerPath);
        } catch (Exception e) {
            log.debug("Could not put this instance's marker {} back: {}", markerPath, e.getMessage());
        }
    }

    /** The live instance markers: name to the incarnation each serves. */
    Map<String, String> all() {
        Map<String, String> out = new TreeMap<>();
        try {
            for (String child : client.getChildren().forPath(instancesPath)) {
                try {
                    out.put(child, new String(client.getData().forPath(instancesPath + "/" + child),
                            StandardCharsets.UTF_8));
                } catch (KeeperException.NoNodeException e) {
                    // that instance just went away
                }
            }
        } catch (KeeperException.NoNodeException e) {
            return out;
        } catch (Exception e) {
            throw new StoreUnavailableException("cannot read the running instances at " + instancesPath + ": "
                    + e.getMessage(), e);
        }
        return out;
    }

    /** Takes this instance's marker away (its store closed while the session goes on), in the background. */
    void remove() {
        try {
            client.delete().quietly().inBackground().forPath(markerPath);
        } catch (Exception e) {
            log.debug("Could not remove the marker {}: {}", markerPath, e.getMessage());
        }
    }
}
