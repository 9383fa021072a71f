package io.tributary.broker.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.security.scram.ScramCredential;
import org.apache.kafka.common.security.scram.internals.ScramFormatter;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;

/**
 * One SCRAM credential to create at startup, parsed from Kafka's {@code --add-scram} syntax
 * ({@code kafka-storage format}, KIP-900): {@code SCRAM-SHA-512=[name=alice,password=alice-secret]}.
 *
 * <p>Keys inside the brackets: {@code name} (required); the password as {@code password},
 * {@code password-file} (Tributary's: a file whose content, without trailing line breaks, is the
 * password) or Kafka's {@code salt} and {@code saltedpassword} (base64); {@code iterations}
 * (default 4096, Kafka's; at least the mechanism's minimum, at most 16384). A value may be in double
 * quotes, which lets it hold {@code , ; ] =}; it cannot hold a double quote (use a file).
 * Entries are separated by {@code ;}, commas or white space outside brackets.
 *
 * <p>Errors are {@link IllegalArgumentException}s naming the setting, the entry's position and the
 * user when known, never a password or the entry's text.
 *
 * <p>Immutable; {@link #toString()} hides the password.
 *
 * @param user       the user name, as the client sends it
 * @param mechanism  the SCRAM mechanism
 * @param iterations PBKDF2 iterations
 * @param password   the password; null when {@code salt} and {@code saltedPassword} are given
 * @param salt       Kafka's {@code salt}, or null to draw a random one
 * @param saltedPassword Kafka's {@code saltedpassword}, or null to derive it from the password
 */
public record BootstrapScramCredential(String user, ScramMechanism mechanism, int iterations, String password,
                                       byte[] salt, byte[] saltedPassword) {

    /** Kafka's default iterations for {@code --add-scram}. */
    static final int DEFAULT_ITERATIONS = 4096;

    private static final Set<String> KEYS = Set.of("name", "password", "password-file", "iterations", "salt",
        "saltedpassword");

    /**
     * Parses every entry of a setting; reads the password files.
     *
     * @param setting the setting's name, for error messages
     * @param value   the setting's value; null or blank for none
     * @throws IllegalArgumentException on a syntax error, an unknown mechanism or key, a missing or
     *                                  unreadable password, or a (user, mechanism) given twice
     */
    public static List<BootstrapScramCredential> parseAll(String setting, String value) {
        List<BootstrapScramCredential> credentials = new ArrayList<>();
        if (value == null || value.isBlank()) {
            return credentials;
        }
        Set<String> seen = new HashSet<>();
        int position = 0;
        int entry = 0;
        while (true) {
            position = skipSeparators(value, position);
            if (position >= value.length()) {
                break;
            }
            entry++;
            String where = setting + ": entry " + entry;
            int equals = value.indexOf('=', position);
            if (equals < 0 || equals + 1 >= value.length() || value.charAt(equals + 1) != '[') {
                throw new IllegalArgumentException(where + " is not MECHANISM=[name=...,password=...] (Kafka's --add-scram syntax)");
            }
            String mechanismName = value.substring(position, equals).strip();
            Map<String, String> pairs = new LinkedHashMap<>();
            position = parsePairs(value, equals + 2, pairs, where);
            BootstrapScramCredential credential = of(mechanismName, pairs, where);
            if (!seen.add(credential.user() + '\u0000' + credential.mechanism().mechanismName())) {
                throw new IllegalArgumentException(where + " (user " + credential.user() + ") repeats "
                    + credential.mechanism().mechanismName() + " for the same user");
            }
            credentials.add(credential);
        }
        return credentials;
    }

    private static int skipSeparators(String value, int position) {
        while (position < value.length()
                && (value.charAt(position) == ';' || value.charAt(position) == ',' || Character.isWhitespace(value.charAt(position)))) {
            position++;
        }
        return position;
    }

    /** Reads {@code k=v,k="v"...]} from {@code start}; returns the position after the {@code ]}. */
    private static int parsePairs(String value, int start, Map<String, String> pairs, String where) {
        int i = start;
        while (true) {
            while (i < value.length() && (value.charAt(i) == ',' || Character.isWhitespace(value.charAt(i)))) {
                i++;
            }
            if (i >= value.length()) {
                throw new IllegalArgumentException(where + " has no closing ]");
            }
            if (value.charAt(i) == ']') {
                return i + 1;
            }
            int equals = value.indexOf('=', i);
            if (equals < 0) {
                throw new IllegalArgumentException(where + " has a key without =value");
            }
            String key = value.substring(i, equals).strip().toLowerCase(java.util.Locale.ROOT);
            if (!KEYS.contains(key)) {
                // The key's text is shown only when it is short and plain: a mistyped value must not leak.
                throw new IllegalArgumentException(where + " has an unknown key"
                    + (key.matches("[a-z-]{1,20}") ? " '" + key + "'" : "") + "; known keys are " + KEYS.stream().sorted().toList());
            }
            i = equals + 1;
            String v;
            if (i < value.length() && value.charAt(i) == '"') {
                int close = value.indexOf('"', i + 1);
                if (close < 0) {
                    throw new IllegalArgumentException(where + ": the value of " + key + " has no closing quote");
                }
                v = value.substring(i + 1, close);
                i = close + 1;
            } else {
                int end = i;
                while (end < value.length() && value.charAt(end) != ',' && value.charAt(end) != ']') {
                    end++;
                }
                v = value.substring(i, end).strip();
                i = end;
            }
            if (pairs.put(key, v) != null) {
                throw new IllegalArgumentException(where + " gives " + key + " twice");
            }
        }
    }

    private static BootstrapScramCredential of(String mechanismName, Map<String, String> pairs, String where) {
        ScramMechanism mechanism = ScramMechanism.forMechanismName(mechanismName.toUpperCase(java.util.Locale.ROOT));
        if (mechanism == null) {
            throw new IllegalArgumentException(where + " names the mechanism "
                + (mechanismName.matches("[A-Za-z0-9-]{1,30}") ? mechanismName : "(unreadable)")
                + "; known ones are " + ScramMechanism.mechanismNames());
        }
        String user = pairs.get("name");
        if (user == null || user.isEmpty()) {
            throw new IllegalArgumentException(where + " has no name=");
        }
        where = where + " (user " + user + ")";
        int iterations = DEFAULT_ITERATIONS;
        if (pairs.containsKey("iterations")) {
            try {
                iterations = Integer.parseInt(pairs.get("iterations"));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(where + ": iterations is not a number");
            }
        }
        if (iterations < mechanism.minIterations() || iterations > ScramCredentialAdmin.MAX_ITERATIONS) {
            throw new IllegalArgumentException(where + ": iterations must be between " + mechanism.minIterations()
                + " and " + ScramCredentialAdmin.MAX_ITERATIONS);
        }
        boolean salted = pairs.containsKey("salt") || pairs.containsKey("saltedpassword");
        int given = (pairs.containsKey("password") ? 1 : 0) + (pairs.containsKey("password-file") ? 1 : 0) + (salted ? 1 : 0);
        if (given != 1) {
            throw new IllegalArgumentException(where + " needs exactly one of password=, password-file= or salt= with saltedpassword=");
        }
        if (salted) {
            if (!pairs.containsKey("salt") || !pairs.containsKey("saltedpassword")) {
                throw new IllegalArgumentException(where + " needs both salt= and saltedpassword=");
            }
            try {
                byte[] salt = Base64.getDecoder().decode(pairs.get("salt"));
                byte[] saltedPassword = Base64.getDecoder().decode(pairs.get("saltedpassword"));
                if (salt.length == 0 || saltedPassword.length == 0) {
                    throw new IllegalArgumentException("empty");
                }
                return new BootstrapScramCredential(user, mechanism, iterations, null, salt, saltedPassword);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ": salt and saltedpassword must be non-empty base64");
            }
        }
        String password = pairs.containsKey("password") ? pairs.get("password") : readPasswordFile(pairs.get("password-file"), where);
        if (password.isEmpty()) {
            throw new IllegalArgumentException(where + " has an empty password");
        }
        return new BootstrapScramCredential(user, mechanism, iterations, password, null, null);
    }

    private static String readPasswordFile(String file, String where) {
        if (file.isEmpty()) {
            throw new IllegalArgumentException(where + " has an empty password-file=");
        }
        try {
            return Files.readString(Path.of(file), StandardCharsets.UTF_8).replaceAll("[\\r\\n]+$", "");
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(where + ": cannot read the password file " + file + " ("
                + e.getClass().getSimpleName() + ")");
        }
    }

    /**
     * The credential as stored in ZooKeeper: a random salt (unless given) and the keys derived
     * from it ({@code salt=...,stored_key=...,server_key=...,iterations=...}).
     *
     * @throws IllegalStateException when the JVM lacks the mechanism's algorithms
     */
    ScramCredential derive() {
        try {
            ScramFormatter formatter = new ScramFormatter(mechanism);
            return password != null ? formatter.generateCredential(password, iterations)
                : formatter.generateCredential(salt, saltedPassword, iterations);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot derive the " + mechanism.mechanismName() + " credential of user " + user
                + ": " + e.getClass().getSimpleName(), e);
        }
    }

    @Override
    public String toString() {
        return "BootstrapScramCredential[" + mechanism.mechanismName() + ", user " + user + ", " + iterations
            + " iterations, password hidden]";
    }
}
