package io.tributary.restproxy.atomic;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A client's idempotency key, scoped to the principal that sent it: two callers may use the same
 * key without meeting. Its record key in the idempotency topic is {@code principal NUL key} in
 * UTF-8.
 *
 * @param principal the caller's principal as the brokers see it ({@code User:alice}), or
 *                  {@code <service>} with authentication off
 * @param key       the {@code Idempotency-Key} header, 1 to 255 visible ASCII characters
 */
public record IdempotencyKey(String principal, String key) {

    /** Longest key accepted, in characters (as Stripe's API). */
    public static final int MAX_LENGTH = 255;

    public IdempotencyKey {
        if (principal.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("principal holds NUL");
        }
        if (!valid(key)) {
            throw new IllegalArgumentException("An Idempotency-Key must be 1 to " + MAX_LENGTH
                + " visible ASCII characters");
        }
    }

    /** Whether {@code key} may be an idempotency key. */
    public static boolean valid(String key) {
        return key != null && !key.isEmpty() && key.length() <= MAX_LENGTH
            && key.chars().allMatch(c -> c > 0x20 && c < 0x7f);
    }

    /** The record key. */
    public byte[] encode() {
        return (principal + '\0' + key).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The key of a record key.
     *
     * @throws IllegalArgumentException when it is not one {@link #encode()} writes
     */
    public static IdempotencyKey decode(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        int nul = text.indexOf('\0');
        if (nul < 0) {
            throw new IllegalArgumentException("no NUL in " + Arrays.toString(Arrays.copyOf(bytes, 16)));
        }
        return new IdempotencyKey(text.substring(0, nul), text.substring(nul + 1));
    }

    /** Its slot among {@code slots}: the idempotency topic's partition and the transactional id's number. */
    public int slot(int slots) {
        return Math.floorMod(principal.hashCode() * 31 + key.hashCode(), slots);
    }
}
