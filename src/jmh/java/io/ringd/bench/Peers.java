package io.ringd.bench;

import io.ringd.ring.HashRing;
import io.ringd.ring.KeyHash;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;

import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.google.common.hash.Hashing;

import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.KetamaNodeKeyFormatter;
import net.spy.memcached.KetamaNodeLocator;
import net.spy.memcached.MemcachedNode;

/**
 * The libraries the ring is measured against in the same JMH run:
 * spymemcached's {@code KetamaNodeLocator} (2.12.3) and Guava's jump hash
 * ({@code Hashing.consistentHash}); the hand-written {@code TreeMap} ring is
 * {@link TreeMapRing}.
 */
final class Peers {

    private Peers() {
    }

    /**
     * spymemcached's ketama locator over {@code nodes}: 160 points each (its
     * default, 40 MD5 digests of {@code "id-k"}, libmemcached's key format,
     * the port 11211 left out), keys hashed with {@code KETAMA_HASH}. This is
     * libketama's placement, which {@code RingConfig.ketama()} also makes, so
     * a ring of that config must answer every key alike ({@link #checkSpy}).
     */
    static KetamaNodeLocator spymemcached(List<Node> nodes) {
        List<MemcachedNode> spyNodes = new ArrayList<>(nodes.size());
        for (Node n : nodes) {
            spyNodes.add(spyNode(n.id()));
        }
        return new KetamaNodeLocator(spyNodes, DefaultHashAlgorithm.KETAMA_HASH,
                KetamaNodeKeyFormatter.Format.LIBMEMCACHED, Map.of());
    }

    /** A {@code MemcachedNode} that only knows its address, {@code id:11211} unresolved. */
    private static MemcachedNode spyNode(String id) {
        InetSocketAddress address = InetSocketAddress.createUnresolved(id, 11211);
        return (MemcachedNode) Proxy.newProxyInstance(Peers.class.getClassLoader(),
                new Class<?>[] {MemcachedNode.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getSocketAddress" -> address;
                    case "toString" -> id;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    /** The id of a spymemcached node made by {@link #spymemcached}. */
    static String spyId(MemcachedNode node) {
        return ((InetSocketAddress) node.getSocketAddress()).getHostString();
    }

    /**
     * Fails the trial unless the ketama ring and spymemcached route the
     * first keys alike: all of them up to 1,000 nodes; beyond, 95% (the two
     * part ways on collisions, where spymemcached's last node wins and the
     * ring's smallest id, and ringd keeps libketama's float rounding, which
     * gives 39 digests, not 40, at some node counts).
     */
    static void checkSpy(HashRing ketamaRing, KetamaNodeLocator spy, String[] keys) {
        int differ = 0;
        for (int i = 0; i < 4096; i++) {
            if (!ketamaRing.route(keys[i]).equals(spyId(spy.getPrimary(keys[i])))) {
                differ++;
            }
        }
        if (ketamaRing.nodeCount() <= 1000 ? differ > 0 : differ > 4096 / 20) {
            throw new IllegalStateException("spymemcached routes " + differ + " of 4096 keys elsewhere");
        }
    }

    /**
     * Guava's jump consistent hash over {@code ids}: the key's 32-bit hash
     * widened to a long, then {@code Hashing.consistentHash(h, n)}. It has no
     * points, weights or preference lists: it is here as the floor of what
     * a lookup can cost.
     */
    static final class Jump {
        private final KeyHash hash;
        private final String[] ids;

        Jump(KeyHash hash, List<Node> nodes) {
            this.hash = hash;
            this.ids = nodes.stream().map(Node::id).toArray(String[]::new);
        }

        String route(String key) {
            return routeHash(hash.hashUnsigned(key));
        }

        String routeHash(long h) {
            return ids[Hashing.consistentHash(h, ids.length)];
        }
    }

    /**
     * The peers of {@code ring} on the same {@code nodes}, each checked against it on {@code keys} before
     * anything is measured: a {@code TreeMap} ring of the same points, Guava's jump hash over the same
     * key hash, and spymemcached's locator beside a ring of libketama's placement.
     */
    record All(TreeMapRing treeMap, Jump jump, HashRing ketamaRing, KetamaNodeLocator spymemcached) {
        static All of(HashRing ring, KeyHash hash, int points, List<Node> nodes, String[] keys) {
            TreeMapRing treeMap = TreeMapRing.build(hash, points, nodes);
            Fixtures.checkAgree(ring, treeMap, keys);
            HashRing ketamaRing = HashRing.of(RingConfig.ketama(), 1, nodes);
            KetamaNodeLocator spymemcached = Peers.spymemcached(nodes);
            checkSpy(ketamaRing, spymemcached, keys);
            return new All(treeMap, new Jump(hash, nodes), ketamaRing, spymemcached);
        }
    }
}
