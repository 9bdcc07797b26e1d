package io.ringd.ring;

import java.util.Arrays;
import java.util.List;

/**
 * How a memcached client counts the digests of a weighted node in its ketama
 * continuum (docs/ring.md section 14). Everything else is the same for every
 * flavor: digest {@code k} of a node is {@code MD5("<placement>-k")} and gives
 * four little-endian points, keys hash as MD5 read little-endian. With equal
 * weights all three give every node 40 digests for most node counts, and 39
 * for some (each its own: 61 nodes for libketama, 25 for libmemcached, 7 for
 * hashring), as the clients do.
 */
public enum KetamaFlavor {
    /**
     * libketama's {@code ketama_create_continuum}:
     * {@code floorf(pct * 40.0 * (float) nodeCount)}, the product a double
     * rounded to float before the floor.
     */
    LIBKETAMA("libketama"),
    /**
     * libmemcached's {@code ketama_weighted} continuum, and spymemcached's
     * weighted {@code KetamaNodeLocator} (they agree):
     * {@code floor((float) (pct * 160.0f / 4.0f * (float) nodeCount + 1e-10))},
     * every product in float.
     */
    LIBMEMCACHED("libmemcached"),
    /**
     * The npm {@code hashring} package, used by the npm {@code memcached}
     * client: {@code Math.floor(w / sumOfWeights * 40 * nodeCount)} in doubles.
     */
    HASHRING("hashring");

    /** The setting names, in declaration order. */
    public static final List<String> NAMES = Arrays.stream(values()).map(KetamaFlavor::settingName).toList();

    private final String settingName;

    KetamaFlavor(String settingName) {
        this.settingName = settingName;
    }

    /** The name the {@code ketamaFlavor} setting spells: {@code libketama}, {@code libmemcached} or {@code hashring}. */
    public String settingName() {
        return settingName;
    }

    /**
     * The flavor of that setting name.
     *
     * @throws IllegalArgumentException naming the bad value
     */
    public static KetamaFlavor byName(String name) {
        for (KetamaFlavor f : values()) {
            if (f.settingName.equals(name)) {
                return f;
            }
        }
        throw new IllegalArgumentException("ketamaFlavor must be one of " + NAMES + ": " + name);
    }

    @Override
    public String toString() {
        return settingName;
    }
}
