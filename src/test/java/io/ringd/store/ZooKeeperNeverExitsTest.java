package io.ringd.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;

import org.apache.zookeeper.util.ServiceUtils;
import org.junit.jupiter.api.Test;

/** {@link ZooKeeperNeverExits} is in force for every test class, found without being named. */
class ZooKeeperNeverExitsTest {

    @Test
    void aZooKeeperExitRequest_isOnlyLogged_inEveryTestClass() throws Exception {
        Field procedure = ServiceUtils.class.getDeclaredField("systemExitProcedure");
        procedure.setAccessible(true);
        assertThat(procedure.get(null)).as("ZooKeeper's exit procedure in a class that does not ask for it")
                .isSameAs(ServiceUtils.LOG_ONLY);
    }
}
