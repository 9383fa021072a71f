package io.tributary.benchmarks;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * How the clients (the perf tools and the Admin client) reach the brokers in a benchmark run:
 * {@code plaintext}, or {@code sasl_ssl} (TLS with a generated self-signed CA, and SCRAM-SHA-512 as
 * user {@value #USER} with a generated password). Both brokers get the same client listener; what
 * they need among themselves (inter-broker, controller) stays in plaintext. The generated password
 * is never printed.
 */
final class BenchmarkSecurity {

    /** The modes of {@code benchmark.security}. */
    enum Mode {
        PLAINTEXT, SASL_SSL;

        /** The mode named {@code plaintext} or {@code sasl_ssl} (any case). */
        static Mode named(String name) {
            return switch (name.trim().toLowerCase(Locale.ROOT)) {
                case "plaintext" -> PLAINTEXT;
                case "sasl_ssl" -> SASL_SSL;
                default -> throw new IllegalArgumentException(
                        "unknown benchmark.security '" + name + "', expected plaintext or sasl_ssl");
            };
        }
    }

    /** The SCRAM user the clients sign in as. */
    static final String USER = "bench";
    /** The only SASL mechanism enabled on the client listener. */
    static final String MECHANISM = "SCRAM-SHA-512";
    private final TlsStores stores;
    private final String userPassword;
    private final Path clientConfig;

    private BenchmarkSecurity(TlsStores stores, String userPassword, Path clientConfig) {
        this.stores = stores;
        this.userPassword = userPassword;
        this.clientConfig = clientConfig;
    }

    /**
     * The security of a run in {@code mode}; for {@code SASL_SSL}, generates the stores and the
     * password and writes the clients' config file in {@code dir}.
     */
    static BenchmarkSecurity create(Mode mode, Path dir) throws IOException, InterruptedException {
        if (mode == Mode.PLAINTEXT) {
            return plaintext();
        }
        TlsStores stores = TlsStores.generate(dir, randomPassword());
        BenchmarkSecurity security = new BenchmarkSecurity(stores, randomPassword(),
                dir.resolve("client.properties"));
        Properties props = new Properties();
        props.putAll(security.clientProperties());
        try (Writer out = Files.newBufferedWriter(security.clientConfig)) {
            props.store(out, "benchmark clients: SASL_SSL with SCRAM-SHA-512");
        }
        return security;
    }

    /** Plaintext clients, as before {@code benchmark.security} existed. */
    static BenchmarkSecurity plaintext() {
        return new BenchmarkSecurity(null, null, null);
    }

    /** Whether the client listener is SASL_SSL. */
    boolean secured() {
        return stores != null;
    }

    /** For the report header. */
    String describe() {
        return secured() ? "SASL_SSL (TLS, " + MECHANISM + " as user " + USER + ")" : "PLAINTEXT";
    }

    /** The clients' security settings (none in plaintext). */
    Map<String, String> clientProperties() {
        Map<String, String> props = new LinkedHashMap<>();
        if (secured()) {
            props.put("security.protocol", "SASL_SSL");
            props.put("sasl.mechanism", MECHANISM);
            props.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                    + USER + "\" password=\"" + userPassword + "\";");
            props.put("ssl.truststore.type", "PKCS12");
            props.put("ssl.truststore.location", stores.trustStore().toString());
            props.put("ssl.truststore.password", stores.password());
        }
        return props;
    }

    /** The perf tools' {@code --command-config} arguments (none in plaintext). */
    List<String> toolArgs() {
        return secured() ? List.of("--command-config", clientConfig.toString()) : List.of();
    }

    /** The key store and trust store of the SASL_SSL listener; null in plaintext. */
    TlsStores stores() {
        return stores;
    }

    /** The SCRAM user in the syntax of Kafka's {@code --add-scram}. */
    String scramUser() {
        return MECHANISM + "=[name=" + USER + ",password=" + userPassword + "]";
    }

    @Override
    public String toString() {
        return "BenchmarkSecurity[" + describe() + "]";
    }

    /** 24 letters and digits from a {@link SecureRandom}: no character Kafka's --add-scram must quote. */
    private static String randomPassword() {
        String alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
        SecureRandom random = new SecureRandom();
        StringBuilder password = new StringBuilder();
        for (int i = 0; i < 24; i++) {
            password.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return password.toString();
    }
}
