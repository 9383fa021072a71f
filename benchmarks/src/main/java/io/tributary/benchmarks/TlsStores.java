package io.tributary.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway TLS setup made with the JDK's {@code keytool}: a self-signed CA, a PKCS12 key store
 * holding the brokers' key and a certificate for {@code 127.0.0.1} and {@code localhost} signed by
 * that CA, and a PKCS12 trust store holding only the CA's certificate, for the clients. All three
 * share one generated password, handed to keytool through its environment rather than its
 * command line.
 *
 * @param keyStore   the brokers' key store (PKCS12)
 * @param trustStore the clients' trust store (PKCS12)
 * @param password   password of both stores and of the key in the key store
 */
record TlsStores(Path keyStore, Path trustStore, String password) {

    private static final String PASSWORD_ENV = "BENCHMARK_STORE_PASSWORD";
    private static final String VALIDITY_DAYS = "30";

    @Override
    public String toString() {
        return "TlsStores[keyStore=" + keyStore + ", trustStore=" + trustStore + ", password=(hidden)]";
    }

    /** Generates the CA, the key store and the trust store in {@code dir} (created if missing). */
    static TlsStores generate(Path dir, String password) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path log = dir.resolve("keytool.log");
        Keytool keytool = new Keytool(dir, log, password);
        Path ca = dir.resolve("ca.p12");
        Path keyStore = dir.resolve("broker.p12");
        Path trustStore = dir.resolve("truststore.p12");
        Path caCert = dir.resolve("ca.crt");
        Path csr = dir.resolve("broker.csr");
        Path signed = dir.resolve("broker.crt");

        keytool.run("-genkeypair", "-alias", "ca", "-keyalg", "RSA", "-keysize", "2048",
                "-dname", "CN=Tributary benchmark CA", "-ext", "bc:c", "-validity", VALIDITY_DAYS,
                "-storetype", "PKCS12", "-keystore", ca.toString());
        keytool.run("-exportcert", "-rfc", "-alias", "ca", "-keystore", ca.toString(), "-file", caCert.toString());
        keytool.run("-genkeypair", "-alias", "broker", "-keyalg", "RSA", "-keysize", "2048",
                "-dname", "CN=127.0.0.1", "-validity", VALIDITY_DAYS, "-storetype", "PKCS12",
                "-keystore", keyStore.toString());
        keytool.run("-certreq", "-alias", "broker", "-keystore", keyStore.toString(), "-file", csr.toString());
        keytool.run("-gencert", "-rfc", "-alias", "ca", "-keystore", ca.toString(), "-infile", csr.toString(),
                "-outfile", signed.toString(), "-validity", VALIDITY_DAYS,
                "-ext", "SAN=IP:127.0.0.1,DNS:localhost", "-ext", "ku:c=digitalSignature,keyEncipherment",
                "-ext", "eku=serverAuth");
        // The CA goes into the key store only long enough for keytool to accept the signed chain.
        keytool.run("-importcert", "-noprompt", "-alias", "ca", "-keystore", keyStore.toString(),
                "-file", caCert.toString());
        keytool.run("-importcert", "-alias", "broker", "-keystore", keyStore.toString(), "-file", signed.toString());
        keytool.run("-delete", "-alias", "ca", "-keystore", keyStore.toString());
        keytool.run("-importcert", "-noprompt", "-alias", "ca", "-storetype", "PKCS12",
                "-keystore", trustStore.toString(), "-file", caCert.toString());
        return new TlsStores(keyStore, trustStore, password);
    }

    /** Runs the JDK's keytool in a directory, the store password in its environment. */
    private record Keytool(Path dir, Path log, String password) {

        void run(String... args) throws IOException, InterruptedException {
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
            command.addAll(List.of(args));
            command.addAll(List.of("-storepass:env", PASSWORD_ENV));
            ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().put(PASSWORD_ENV, password);
            Process process = builder.start();
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IllegalStateException("keytool " + args[0] + " failed; " + log + " ends with:\n"
                        + LogTail.of(log, 20));
            }
        }

        @Override
        public String toString() {
            return "Keytool[dir=" + dir + "]";
        }
    }
}
