import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.apache.zookeeper.server.ServerConfig;
import org.apache.zookeeper.server.ZooKeeperServerMain;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;

/**
 * One real ZooKeeper server for bench/followers-zk.sh, on loopback: the
 * zookeeper jar's own ZooKeeperServerMain (from the Maven cache), its
 * transaction log and snapshots on disk in DATA_DIR, the four-letter words
 * allowed (mntr). Beside it, a sampler with a session of its own: every 500 ms
 * it lists the children of WATCHED (the ring's followers board) and writes a
 * line per child to SAMPLES: epoch ms, child, data length, data version (which
 * counts the child's setData calls: the posts of one part).
 *
 * <pre>
 *   java -cp CLASSPATH bench/FollowersZooKeeper.java PORT DATA_DIR SAMPLES WATCHED
 * </pre>
 *
 * Prints "zookeeper up" once it serves; runs until killed.
 */
public class FollowersZooKeeper {

    public static void main(String[] args) throws Exception {
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).setLevel(Level.WARN);
        int port = Integer.parseInt(args[0]);
        Path data = Path.of(args[1]);
        Path samples = Path.of(args[2]);
        String watched = args[3];
        Files.createDirectories(data);
        Path cfg = data.resolve("zoo.cfg");
        Files.writeString(cfg, String.join("\n", "tickTime=2000", "dataDir=" + data.resolve("data"),
                "clientPort=" + port, "clientPortAddress=127.0.0.1", "maxClientCnxns=0", "admin.enableServer=false",
                "4lw.commands.whitelist=*", ""));
        ServerConfig config = new ServerConfig();
        config.parse(cfg.toString());
        Thread server = new Thread(() -> {
            try {
                new ZooKeeperServerMain().runFromConfig(config);
            } catch (Exception e) {
                e.printStackTrace();
                System.exit(1);
            }
        }, "zookeeper");
        server.start();

        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = null;
        for (int attempt = 0; attempt < 100 && zk == null; attempt++) {
            try {
                ZooKeeper z = new ZooKeeper("127.0.0.1:" + port, 30_000, e -> {
                    if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                        connected.countDown();
                    }
                });
                if (connected.await(2, TimeUnit.SECONDS)) {
                    zk = z;
                } else {
                    z.close();
                }
            } catch (Exception e) {
                Thread.sleep(200);
            }
        }
        if (zk == null) {
            throw new IllegalStateException("ZooKeeper did not come up on port " + port);
        }
        System.out.println("zookeeper up");
        System.out.flush();
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(samples))) {
            out.println("ms,child,bytes,version");
            while (true) {
                long now = System.currentTimeMillis();
                try {
                    List<String> children = zk.getChildren(watched, false);
                    for (String c : children) {
                        Stat s = zk.exists(watched + "/" + c, false);
                        if (s != null) {
                            out.println(now + "," + c + "," + s.getDataLength() + "," + s.getVersion());
                        }
                    }
                    out.flush();
                } catch (KeeperException.NoNodeException e) {
                    // no board yet
                }
                Thread.sleep(500);
            }
        }
    }
}
