package io.tributary.faults.harness;

import java.security.SecureRandom;
import java.util.Locale;

/**
 * Names one harness run on this machine: {@link #id()} (5 characters, part of every namespace and interface name) and
 * the /24 its network uses, {@code 10.<200..249>.<0..255>}, so runs side by side do not collide.
 */
public record RunId(String id, String subnet) {

    private static final SecureRandom RANDOM = new SecureRandom();

    public static RunId random() {
        int bits = RANDOM.nextInt(1 << 30);
        String id = Integer.toString(bits & 0xFFFFFF, 36);
        id = ("00000" + id).substring(id.length()).toLowerCase(Locale.ROOT);
        int second = 200 + ((bits >>> 24) % 50);
        int third = RANDOM.nextInt(256);
        return new RunId(id, "10." + second + "." + third);
    }
}
