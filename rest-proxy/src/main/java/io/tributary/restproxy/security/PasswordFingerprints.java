package io.tributary.restproxy.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Salted one-way fingerprints of passwords (HMAC-SHA-256 under a random key made when the proxy
 * starts), so caches and pools can tell passwords apart without holding them as keys, and a
 * fingerprint seen anywhere says nothing about the password outside this process. Thread-safe.
 */
public final class PasswordFingerprints {

    private final SecretKeySpec salt;

    public PasswordFingerprints() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        this.salt = new SecretKeySpec(bytes, "HmacSHA256");
    }

    /** The fingerprint of {@code password} for {@code username}. */
    public String of(String username, String password) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(salt);
            mac.update(username.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) 0);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(
                mac.doFinal(password.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
