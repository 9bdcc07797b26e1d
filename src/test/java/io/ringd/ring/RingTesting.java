package io.ringd.ring;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/** Seeds, injected hash functions and random memberships shared by the ring tests. */
final class RingTesting {

    /** The largest hash value, {@code 2^32-1}. */
    static final long MAX_HASH = (1L << 32) - 1;

    private static final String ID_CHARS =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-:@";

    private RingTesting() {
    }

    /**
     * The seed every randomized test uses unless {@code -Dringd.seed=N} is
     * given: fixed, so every run (CI included) checks the same cases and a
     * failure replays as it is.
     */
    static final long DEFAULT_SEED = 20_260_214L;

    /**
     * The seed of a randomized test: {@code -Dringd.seed=N} when given (to
     * replay a failure or to try other cases), otherwise {@link #DEFAULT_SEED}.
     * Printed here, and put in every assertion message by the test.
     */
    static long seed(String test) {
        String given = System.getProperty("ringd.seed");
        long seed = given == null || given.isBlank() ? DEFAULT_SEED : Long.parseLong(given.trim());
        System.out.println(test + ": seed " + seed + " (replay with -Dringd.seed=" + seed + ")");
        return seed;
    }

    /** The first 4 bytes of a JDK digest of the UTF-8 bytes, big-endian, unsigned: independent of KeyHashes. */
    static long digest32(String algorithm, String key) {
        try {
            byte[] d = MessageDigest.getInstance(algorithm).digest(key.getBytes(StandardCharsets.UTF_8));
            return ((d[0] & 0xffL) << 24) | ((d[1] & 0xffL) << 16) | ((d[2] & 0xffL) << 8) | (d[3] & 0xffL);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * md5 coarsened to 301 values spread evenly from 0 to 2^32-1 inclusive,
     * so that vnodes collide often and points sit on both ends of the space.
     */
    static final KeyHash COARSE = new KeyHash() {
        @Override
        public int hash(String key) {
            long bucket = digest32("MD5", key) % 301;
            return (int) (bucket * MAX_HASH / 300);
        }

        @Override
        public String toString() {
            return "coarse";
        }
    };

    /** A named hash, or "coarse" for {@link #COARSE}. */
    static KeyHash hashNamed(String name) {
        return name.equals("coarse") ? COARSE : KeyHashes.byName(name);
    }

    /** A hash that answers {@code fixed} for the keys it lists and md5 for the rest. */
    static KeyHash table(Map<String, Long> fixed) {
        Map<String, Long> copy = new HashMap<>(fixed);
        return key -> {
            Long v = copy.get(key);
            return v != null ? (int) (long) v : (int) digest32("MD5", key);
        };
    }

    /** md5, counting and recording every call. */
    static final class CountingHash implements KeyHash {
        final AtomicInteger calls = new AtomicInteger();
        final List<String> labels = new ArrayList<>();

        @Override
        public synchronized int hash(String key) {
            calls.incrementAndGet();
            labels.add(key);
            return KeyHashes.md5().hash(key);
        }

        synchronized void reset() {
            calls.set(0);
            labels.clear();
        }
    }

    /** A random valid id of 1 to 6 characters from the whole id alphabet. */
    static String randomId(Random rnd) {
        int len = 1 + rnd.nextInt(6);
        StringBuilder sb = new StringBuilder(len);
        for (int i = 0; i < len; i++) {
            sb.append(ID_CHARS.charAt(rnd.nextInt(ID_CHARS.length())));
        }
        return sb.toString();
    }

    /** A random weight: whole, fractional, or tiny (a single point). */
    static double randomWeight(Random rnd) {
        switch (rnd.nextInt(5)) {
            case 0:
                return 1 + rnd.nextInt(3);
            case 1:
                return 0.5;
            case 2:
                return 1e-6; // always one point
            default:
                return Math.round((0.05 + rnd.nextDouble() * 2.5) * 1000) / 1000.0;
        }
    }

    /** A random zone: none a third of the time, else one of three. */
    static String randomZone(Random rnd) {
        int z = rnd.nextInt(4);
        return z == 3 ? null : "z" + z;
    }

    static Node randomNode(Random rnd, String id) {
        return new Node(id, randomWeight(rnd), randomZone(rnd));
    }

    /** {@code count} nodes with distinct random ids. */
    static List<Node> randomMembers(Random rnd, int count) {
        Map<String, Node> byId = new HashMap<>();
        while (byId.size() < count) {
            String id = randomId(rnd);
            byId.putIfAbsent(id, randomNode(rnd, id));
        }
        return new ArrayList<>(byId.values());
    }

    /** A random hash value, with the edges of the space and of the ring's points often. */
    static long randomHash(Random rnd, LinearScanRing oracle) {
        int pick = rnd.nextInt(10);
        if (pick == 0) {
            return rnd.nextBoolean() ? 0 : MAX_HASH;
        }
        if (pick <= 3 && oracle.points.length > 0) {
            long p = oracle.points[rnd.nextInt(oracle.points.length)] + rnd.nextInt(3) - 1;
            return Math.max(0, Math.min(MAX_HASH, p));
        }
        return rnd.nextLong() & MAX_HASH;
    }

    /** A random key of 1 to 10 code points, some of them non-ASCII or outside the BMP. */
    static String randomKey(Random rnd) {
        int len = 1 + rnd.nextInt(10);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < len; i++) {
            switch (rnd.nextInt(6)) {
                case 0:
                    sb.appendCodePoint(0x80 + rnd.nextInt(0x780)); // two UTF-8 bytes
                    break;
                case 1:
                    sb.appendCodePoint(0x1F300 + rnd.nextInt(0x300)); // outside the BMP, four bytes
                    break;
                case 2:
                    sb.appendCodePoint(0x800 + rnd.nextInt(0xD000 - 0x800)); // three bytes
                    break;
                default:
                    sb.append((char) (0x20 + rnd.nextInt(0x5F)));
            }
        }
        return sb.toString();
    }

    /** A hash value on, next to or between some version's points, at an end of the space, or anywhere. */
    static long edgyHash(Random rnd, List<HashRing> rings) {
        HashRing r = rings.get(rnd.nextInt(rings.size()));
        int pick = rnd.nextInt(6);
        if (pick == 0) {
            return rnd.nextBoolean() ? 0 : MAX_HASH;
        }
        if (pick <= 3 && !r.isEmpty() && !r.isTable()) {
            long p = r.pointAt(rnd.nextInt(r.pointCount())) + rnd.nextInt(3) - 1;
            return Math.max(0, Math.min(MAX_HASH, p));
        }
        if (pick == 4 && r.isTable()) {
            return r.pointCount() * (long) rnd.nextInt(1000) + rnd.nextInt(3); // entries 0, 1, 2
        }
        return rnd.nextLong() & MAX_HASH;
    }
}
