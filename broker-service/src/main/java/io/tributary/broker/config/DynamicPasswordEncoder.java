package io.tributary.broker.config;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;
import org.apache.kafka.common.config.ConfigException;

/**
 * Encrypts the passwords of dynamic broker configs before they are written to ZooKeeper and
 * decrypts them when they are read, with the broker's {@code password.encoder.secret}, as Kafka's
 * ZooKeeper-mode {@code EncryptingPasswordEncoder} (kafka-server-common 3.9) does and in its
 * stored format, so Kafka's stored passwords read here and ours there: a comma-separated map of
 * {@code encryptedPassword} (base64), {@code passwordLength}, {@code salt} (256 random bytes,
 * base64), {@code keyFactoryAlgorithm} (PBKDF2WithHmacSHA512), {@code cipherAlgorithm}
 * (AES/CBC/PKCS5Padding), {@code keyLength} (128 bits), {@code iterations} (4096) and
 * {@code initializationVector} (base64). Decoding uses the parameters stored with the value.
 *
 * <p>Thread-safe.
 */
public final class DynamicPasswordEncoder {

    private static final String KEY_FACTORY_ALGORITHM = "PBKDF2WithHmacSHA512";
    private static final String CIPHER_ALGORITHM = "AES/CBC/PKCS5Padding";
    private static final int KEY_LENGTH_BITS = 128;
    private static final int ITERATIONS = 4096;

    private final char[] secret;
    private final SecureRandom random = new SecureRandom();

    /** @param secret {@code password.encoder.secret} */
    public DynamicPasswordEncoder(String secret) {
        if (secret == null || secret.isEmpty()) {
            throw new IllegalArgumentException("password.encoder.secret must not be empty");
        }
        this.secret = secret.toCharArray();
    }

    /** The stored form of {@code password}. */
    public String encode(String password) {
        try {
            byte[] salt = new byte[256];
            random.nextBytes(salt);
            Cipher cipher = Cipher.getInstance(CIPHER_ALGORITHM);
            cipher.init(Cipher.ENCRYPT_MODE, key(KEY_FACTORY_ALGORITHM, CIPHER_ALGORITHM, KEY_LENGTH_BITS, salt,
                ITERATIONS));
            byte[] encrypted = cipher.doFinal(password.getBytes(StandardCharsets.UTF_8));
            Map<String, String> stored = new LinkedHashMap<>();
            stored.put("encryptedPassword", base64(encrypted));
            stored.put("passwordLength", Integer.toString(password.length()));
            stored.put("salt", base64(salt));
            stored.put("keyFactoryAlgorithm", KEY_FACTORY_ALGORITHM);
            stored.put("cipherAlgorithm", CIPHER_ALGORITHM);
            stored.put("keyLength", Integer.toString(KEY_LENGTH_BITS));
            stored.put("iterations", Integer.toString(ITERATIONS));
            stored.put("initializationVector", base64(cipher.getIV()));
            StringBuilder out = new StringBuilder();
            stored.forEach((k, v) -> out.append(out.length() == 0 ? "" : ",").append(k).append(':').append(v));
            return out.toString();
        } catch (GeneralSecurityException e) {
            throw new ConfigException("Password could not be encoded: " + e.getMessage());
        }
    }

    /**
     * The password of a stored value.
     *
     * @throws ConfigException a value that is not an encoded password, or one encoded with another secret
     */
    public String decode(String stored) {
        Map<String, String> params = new LinkedHashMap<>();
        for (String entry : stored.split(",")) {
            int colon = entry.indexOf(':');
            if (colon < 0) {
                throw new ConfigException("Password could not be decoded: not an encoded password");
            }
            params.put(entry.substring(0, colon).trim(), entry.substring(colon + 1).trim());
        }
        try {
            String cipherAlgorithm = required(params, "cipherAlgorithm");
            Cipher cipher = Cipher.getInstance(cipherAlgorithm);
            cipher.init(Cipher.DECRYPT_MODE, key(params.getOrDefault("keyFactoryAlgorithm", KEY_FACTORY_ALGORITHM),
                    cipherAlgorithm, Integer.parseInt(required(params, "keyLength")),
                    Base64.getDecoder().decode(required(params, "salt")),
                    Integer.parseInt(required(params, "iterations"))),
                new IvParameterSpec(Base64.getDecoder().decode(required(params, "initializationVector"))));
            String password = new String(cipher.doFinal(Base64.getDecoder().decode(required(params,
                "encryptedPassword"))), StandardCharsets.UTF_8);
            if (password.length() != Integer.parseInt(required(params, "passwordLength"))) {
                throw new ConfigException("Password could not be decoded, sanity check of length failed");
            }
            return password;
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new ConfigException("Password could not be decoded: " + e.getMessage());
        }
    }

    private SecretKeySpec key(String keyFactoryAlgorithm, String cipherAlgorithm, int keyLength, byte[] salt,
                              int iterations) throws GeneralSecurityException {
        SecretKeyFactory factory = SecretKeyFactory.getInstance(keyFactoryAlgorithm);
        byte[] key = factory.generateSecret(new PBEKeySpec(secret, salt, iterations, keyLength)).getEncoded();
        int slash = cipherAlgorithm.indexOf('/');
        return new SecretKeySpec(key, slash > 0 ? cipherAlgorithm.substring(0, slash) : cipherAlgorithm);
    }

    private static String required(Map<String, String> params, String name) {
        String value = params.get(name);
        if (value == null) {
            throw new ConfigException("Password could not be decoded: no " + name);
        }
        return value;
    }

    private static String base64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }
}
