package io.tributary.broker.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway certificate authority and certificates signed by it, made with the JDK's
 * {@code keytool} in a test's directory: PKCS12 key stores (password {@link #PASSWORD}) and PEM
 * files. Certificates are valid for two days.
 */
public final class TestCertificates {

    /** Password of every key store and key made here. */
    public static final String PASSWORD = "test-store-pass";

    private final Path dir;
    private final Path caStore;

    private TestCertificates(Path dir) {
        this.dir = dir;
        this.caStore = dir.resolve("ca.p12");
    }

    /** Makes the CA (CN=Tributary Test CA) and writes its certificate to {@code ca.pem}. */
    public static TestCertificates create(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        TestCertificates certificates = new TestCertificates(dir);
        certificates.keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1",
            "-dname", "CN=Tributary Test CA", "-ext", "bc:c", "-validity", "2",
            "-keystore", certificates.caStore.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD);
        certificates.keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", certificates.caStore.toString(),
            "-storepass", PASSWORD, "-file", certificates.caPem().toString());
        return certificates;
    }

    /** The CA's certificate, PEM: what clients trust. */
    public Path caPem() {
        return dir.resolve("ca.pem");
    }

    /**
     * A PKCS12 key store {@code <name>.p12} holding a key and its certificate signed by the CA, with
     * the CA certificate in the chain, for 127.0.0.1 and localhost.
     *
     * @param distinguishedName e.g. {@code CN=localhost} or {@code CN=alice,OU=apps}
     */
    public Path keyStore(String name, String distinguishedName) throws IOException, InterruptedException {
        Path store = dir.resolve(name + ".p12");
        Path request = dir.resolve(name + ".csr");
        Path certificate = dir.resolve(name + ".pem");
        keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", distinguishedName,
            "-validity", "2", "-keystore", store.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD);
        keytool("-certreq", "-alias", name, "-keystore", store.toString(), "-storepass", PASSWORD,
            "-file", request.toString());
        keytool("-gencert", "-rfc", "-alias", "ca", "-keystore", caStore.toString(), "-storepass", PASSWORD,
            "-infile", request.toString(), "-outfile", certificate.toString(), "-validity", "2",
            "-ext", "SAN=dns:localhost,ip:127.0.0.1");
        keytool("-importcert", "-noprompt", "-alias", "ca", "-file", caPem().toString(), "-keystore", store.toString(),
            "-storepass", PASSWORD);
        keytool("-importcert", "-alias", name, "-file", certificate.toString(), "-keystore", store.toString(),
            "-storepass", PASSWORD);
        return store;
    }

    private void keytool(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(TestJvm.toolFlags());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException("keytool " + String.join(" ", args) + " failed: " + output);
        }
    }
}
