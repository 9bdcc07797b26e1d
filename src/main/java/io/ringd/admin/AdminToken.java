package io.ringd.admin;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;


import io.ringd.store.StoreProperties;

/**
 * The admin bearer token: {@code ringd.admin.token} ({@code RINGD_ADMIN_TOKEN})
 * or, when none is set, one generated on first start into
 * {@code <data-dir>/admin-token}, readable by its owner only. The log says
 * where it is, never what it is.
 */
@Component
public class AdminToken {

    public static final String FILE = "admin-token";
    private static final Logger log = LoggerFactory.getLogger(AdminToken.class);

    private final byte[] digest;
    /** The digest of the previous token, accepted during a rotation; {@code null} when none is set. */
    private final byte[] previous;
    /** The digests of the ring tokens, by ring. */
    private final Map<String, byte[]> rings = new TreeMap<>();

    public AdminToken(AdminProperties admin, StoreProperties store) {
        String token = admin.token();
        if (token == null && store.store() == StoreProperties.Kind.ZOOKEEPER) {
            throw new IllegalStateException("ringd.store=zookeeper needs ringd.admin.token (RINGD_ADMIN_TOKEN): "
                    + "every instance that shares the ring must be given the same token");
        }
        if (token == null) {
            token = fromFile(store.dataDir().toAbsolutePath().normalize().resolve(FILE));
        } else {
            log.info("Admin token taken from ringd.admin.token (RINGD_ADMIN_TOKEN)");
        }
        this.digest = sha256(token);
        this.previous = admin.previousToken() == null ? null : sha256(admin.previousToken());
        if (previous != null) {
            log.info("The previous admin token (ringd.admin.previous-token) is accepted too until it is unset");
        }
        admin.ringTokens().forEach((ring, t) -> rings.put(ring, sha256(t)));
        if (!rings.isEmpty()) {
            log.info("Ring tokens (ringd.admin.ring-tokens) are set for the rings {}", rings.keySet());
        }
    }

    /**
     * The ring whose token (ringd.admin.ring-tokens) {@code presented} is, or {@code null}; compared as
     * {@link #matches} compares, against every ring token, so the time taken shows neither which ring nor
     * whether one matched.
     */
    public String ringOf(String presented) {
        if (presented == null || rings.isEmpty()) {
            return null;
        }
        byte[] d = sha256(presented);
        String found = null;
        for (Map.Entry<String, byte[]> e : rings.entrySet()) {
            if (MessageDigest.isEqual(e.getValue(), d) & found == null) {
                found = e.getKey();
            }
        }
        return found;
    }

    /**
     * Whether {@code presented} is the token (or the previous one), compared
     * in constant time: fixed-length digests, compared with
     * {@link MessageDigest#isEqual}, so neither the content nor the length of
     * a wrong token shows in the time taken. Both are always compared.
     */
    public boolean matches(String presented) {
        if (presented == null) {
            return false;
        }
        byte[] d = sha256(presented);
        boolean current = MessageDigest.isEqual(digest, d);
        boolean old = previous != null && MessageDigest.isEqual(previous, d);
        return current | old;
    }

    private static String fromFile(Path file) {
        try {
            if (!Files.exists(file)) {
                Files.createDirectories(file.getParent());
                byte[] random = new byte[32];
                new SecureRandom().nextBytes(random);
                String token = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
                try {
                    Files.createFile(file, PosixFilePermissions.asFileAttribute(
                            PosixFilePermissions.fromString("rw-------")));
                } catch (UnsupportedOperationException e) {
                    Files.createFile(file);
                } catch (FileAlreadyExistsException e) {
                    return read(file);
                }
                Files.writeString(file, token + "\n", StandardCharsets.US_ASCII);
                log.info("Generated an admin token into {} (readable by its owner only); "
                        + "send it as 'Authorization: Bearer <token>'", file);
                return token;
            }
            log.info("Admin token read from {}", file);
            return read(file);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read or create the admin token file " + file + ": " + e, e);
        }
    }

    private static String read(Path file) throws IOException {
        String token = Files.readString(file, StandardCharsets.US_ASCII).trim();
        if (token.length() < 16) {
            throw new IllegalStateException("the admin token file " + file + " holds no usable token "
                    + "(at least 16 characters); delete it to generate a new one");
        }
        return token;
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
