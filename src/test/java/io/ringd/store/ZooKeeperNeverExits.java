package io.ringd.store;

import org.apache.zookeeper.util.ServiceUtils;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Keeps the ZooKeeper servers that tests start inside the test JVM from ending it. A quorum peer
 * that cannot bind its election port three times (a restarted member of a {@code TestingCluster}
 * whose port another socket took meanwhile) asks for {@code System.exit(14)}, which ends the
 * whole fork after its tests passed ("The forked VM terminated without properly saying
 * goodbye"). Here that request is only logged, and the test that needed the member fails on
 * its own. Registered for every test class (META-INF/services, with extension autodetection
 * in junit-platform.properties).
 */
public final class ZooKeeperNeverExits implements BeforeAllCallback {

    @Override
    public void beforeAll(ExtensionContext context) {
        ServiceUtils.setSystemExitProcedure(ServiceUtils.LOG_ONLY);
    }
}
