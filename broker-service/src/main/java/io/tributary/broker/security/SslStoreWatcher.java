package io.tributary.broker.security;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.broker.config.BrokerSecurityProperties;
import io.tributary.broker.scheduler.Scheduler;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reloads the TLS listeners' key and trust stores when their files change on disk, so a rotated
 * certificate is served without a restart (cert-manager rewriting a mounted Kubernetes Secret, an
 * operator replacing {@code broker.p12}).
 *
 * <p>The files watched are {@code ssl.keystore.location} and {@code ssl.truststore.location}
 * (JKS, PKCS12 or PEM). Each {@link #check()} resolves them through symbolic links and compares
 * the SHA-256 of their content with the previous check's: Kubernetes updates a Secret volume by
 * pointing its {@code ..data} link at a new directory, so the content behind the link is what
 * counts, not the link's own modification time. When a file changed, every watched listener is
 * reloaded through {@link ListenerSecurity#reloadSslStores(boolean)}, where kafka-clients'
 * {@code SslFactory.reconfigure} validates the new stores (the key store loads, its certificate
 * keeps the subject DN and SANs) before swapping them in. New connections get the new certificate;
 * open connections keep their session. The broker's own client connections registered with
 * {@link #alsoReload} (replica fetchers) are told to reload too.
 *
 * <p>Outcomes are logged (INFO with the new certificate's subject, serial and expiry; WARN with
 * the file and kafka-clients' reason when refused) without any password or key, and counted in
 * {@code tributary.ssl.store.reloads{listener, result=success|failure}}. A refused store leaves the
 * previous certificate serving and is not tried again until the file changes again; a file that
 * cannot be read (mid-replacement, removed, not a regular file, over {@value #MAX_STORE_BYTES}
 * bytes) holds the reload back until every watched file can be read. Stores given inline as PEM
 * text have no file and are not watched.
 *
 * <p>Thread-safe: listeners may be added from any thread, and checks run one at a time.
 */
public final class SslStoreWatcher {

    private static final Logger log = LoggerFactory.getLogger(SslStoreWatcher.class);
    private static final String HIDDEN = "[hidden]";
    /** Larger files are not key or trust stores (a JDK's cacerts is some 200 KB); they are not read. */
    static final long MAX_STORE_BYTES = 16L * 1024 * 1024;

    /** What one {@link #check()} did. */
    public enum Outcome {
        /** No watched file changed, or one could not be read (the check waits until all can). */
        UNCHANGED,
        /** A file changed and every watched listener now serves the new stores. */
        RELOADED,
        /** A file changed and at least one listener refused the new stores; those keep the old ones. */
        REFUSED
    }

    /**
     * What a store file held at a check.
     *
     * @param realPath  the file after resolving symbolic links
     * @param sizeBytes its length, bytes
     * @param sha256    SHA-256 of its content, hex
     */
    record StoreFingerprint(Path realPath, long sizeBytes, String sha256) {
    }

    private final BrokerSecurityProperties security;
    private final List<Path> files;
    private final List<String> secrets;
    private final MeterRegistry registry;
    private final List<WatchedListener> listeners = new CopyOnWriteArrayList<>();
    private final List<ClientReload> clientReloads = new CopyOnWriteArrayList<>();
    private final Map<Path, StoreFingerprint> lastSeen = new LinkedHashMap<>();
    private final Map<Path, String> unreadable = new LinkedHashMap<>();

    private record WatchedListener(ListenerSecurity security, Counter successes, Counter failures) {
    }

    private record ClientReload(String what, Runnable reload) {
    }

    /**
     * Takes the watched files' current content as the baseline; build it before the listeners'
     * {@code SslFactory}s load the stores, so a change in between is not missed.
     *
     * @param security the store locations, and the passwords and keys kept out of its log lines
     * @param registry where the reload counters go
     */
    public SslStoreWatcher(BrokerSecurityProperties security, MeterRegistry registry) {
        this.security = security;
        this.registry = registry;
        List<Path> watched = new ArrayList<>();
        for (String location : new String[] {security.sslKeystoreLocation(), security.sslTruststoreLocation()}) {
            if (location != null && !location.isBlank() && !watched.contains(Path.of(location.strip()))) {
                watched.add(Path.of(location.strip()));
            }
        }
        this.files = List.copyOf(watched);
        List<String> hidden = new ArrayList<>();
        for (String secret : new String[] {security.sslKeystorePassword(), security.sslKeyPassword(),
                security.sslTruststorePassword(), security.sslKeystoreKey()}) {
            if (secret != null && !secret.isEmpty()) {
                hidden.add(secret);
            }
        }
        this.secrets = List.copyOf(hidden);
        synchronized (this) {
            for (Path file : files) {
                try {
                    lastSeen.put(file, fingerprint(file));
                } catch (IOException e) {
                    unreadable.put(file, e.toString());
                }
            }
        }
    }

    /** Reloads {@code listener}'s stores on each change from now on; it must use TLS. */
    public void watch(ListenerSecurity listener) {
        if (!listener.usesTls()) {
            throw new IllegalArgumentException("Listener " + listener.listenerName() + " does not use TLS");
        }
        listeners.add(new WatchedListener(listener,
            counter(listener.listenerName(), "success", "TLS store reloads that now serve"),
            counter(listener.listenerName(), "failure", "TLS store reloads refused; the previous stores serve")));
    }

    /**
     * Also runs {@code reload} on each change: this broker's own client connections over a TLS
     * listener (replica fetchers), which validate and log the new stores themselves.
     *
     * @param what names them in a log line if {@code reload} throws
     */
    public void alsoReload(String what, Runnable reload) {
        clientReloads.add(new ClientReload(what, reload));
    }

    private Counter counter(String listener, String result, String description) {
        return Counter.builder("tributary.ssl.store.reloads").description(description).tag("listener", listener)
            .tag("result", result).register(registry);
    }

    /** Whether there is anything to watch: a store file and a TLS listener. */
    public boolean hasWork() {
        return !files.isEmpty() && !listeners.isEmpty();
    }

    /**
     * Runs {@link #check()} every {@code intervalMs} on {@code scheduler}, first after one interval.
     *
     * @param intervalMs how often, ms; positive
     * @return the task, to cancel
     */
    public ScheduledFuture<?> start(Scheduler scheduler, long intervalMs) {
        if (intervalMs <= 0) {
            throw new IllegalArgumentException("ssl reload interval must be positive, was " + intervalMs + " ms");
        }
        return scheduler.schedule("ssl-store-reload", this::check, intervalMs, intervalMs);
    }

    /**
     * Compares the watched files with the previous check and, when one changed, reloads every
     * watched listener. Never throws for a bad store: refusals are logged and counted.
     */
    public synchronized Outcome check() {
        Map<Path, StoreFingerprint> seen = new LinkedHashMap<>();
        for (Path file : files) {
            try {
                seen.put(file, fingerprint(file));
                unreadable.remove(file);
            } catch (IOException e) {
                if (!e.toString().equals(unreadable.put(file, e.toString()))) {
                    log.warn("TLS store {} cannot be read ({}); the loaded stores keep serving until it can", file,
                        redact(e.toString()));
                }
            }
        }
        if (seen.size() < files.size()) {
            // A reload reads every store, so it would be refused now; the changes of the files that
            // could be read are kept for the check that can read them all.
            return Outcome.UNCHANGED;
        }
        List<Path> changed = new ArrayList<>();
        seen.forEach((file, now) -> {
            StoreFingerprint before = lastSeen.put(file, now);
            if (before == null || !before.sha256().equals(now.sha256())) {
                changed.add(file);
            }
        });
        if (changed.isEmpty()) {
            return Outcome.UNCHANGED;
        }
        boolean refused = false;
        for (WatchedListener listener : listeners) {
            refused |= !reload(listener, changed);
        }
        for (ClientReload client : clientReloads) {
            try {
                client.reload().run();
            } catch (RuntimeException e) {
                log.warn("The {} could not reload their TLS stores: {}", client.what(), redact(String.valueOf(e.getMessage())));
            }
        }
        return refused ? Outcome.REFUSED : Outcome.RELOADED;
    }

    private boolean reload(WatchedListener listener, List<Path> changed) {
        String name = listener.security().listenerName();
        try {
            boolean reloaded = listener.security().reloadSslStores(true);
            if (!reloaded) { // closed (shutdown): nothing serves, nothing to count
                log.debug("Listener {} is closed; its TLS stores were not reloaded", name);
                return true;
            }
            listener.successes().increment();
            X509Certificate certificate = listener.security().serverCertificate().orElse(null);
            if (certificate == null) {
                log.info("Listener {} reloaded its TLS stores after {} changed", name, changed);
            } else {
                log.info("Listener {} reloaded its TLS stores after {} changed: new connections get {} (serial {},"
                    + " valid until {})", name, changed, certificate.getSubjectX500Principal().getName(),
                    certificate.getSerialNumber().toString(16), certificate.getNotAfter().toInstant());
            }
            return true;
        } catch (RuntimeException e) { // KafkaException (ConfigException) from SslFactory.reconfigure, mostly
            listener.failures().increment();
            log.warn("Listener {} refused the TLS stores changed in {}; the previous certificate keeps serving: {}{}",
                name, changed, redact(String.valueOf(e.getMessage())), redact(storeProblems()));
            return false;
        }
    }

    /**
     * Why the JKS or PKCS12 stores do not load, as the JDK says it ("keystore password was
     * incorrect"), which kafka-clients' refusal leaves out; empty when they load or are PEM.
     */
    private String storeProblems() {
        StringBuilder problems = new StringBuilder();
        storeProblem(problems, security.sslKeystoreLocation(), security.sslKeystoreType(),
            security.sslKeystorePassword());
        storeProblem(problems, security.sslTruststoreLocation(), security.sslTruststoreType(),
            security.sslTruststorePassword());
        return problems.toString();
    }

    private static void storeProblem(StringBuilder problems, String location, String type, String password) {
        if (location == null || location.isBlank() || type == null
                || !List.of("JKS", "PKCS12").contains(type.strip().toUpperCase(java.util.Locale.ROOT))) {
            return;
        }
        try (var in = Files.newInputStream(Path.of(location.strip()))) {
            KeyStore.getInstance(type.strip()).load(in, password == null ? null : password.toCharArray());
        } catch (IOException | GeneralSecurityException e) {
            problems.append("; ").append(location.strip()).append(" does not load as ").append(type.strip())
                .append(": ").append(e.getClass().getSimpleName());
            if (e.getMessage() != null) {
                problems.append(": ").append(e.getMessage());
            }
        }
    }

    /** {@code text} with every configured password and key replaced by {@value #HIDDEN}. */
    private String redact(String text) {
        String redacted = text;
        for (String secret : secrets) {
            redacted = redacted.replace(secret, HIDDEN);
        }
        return redacted;
    }

    /**
     * The file's content digest. Only a regular file of at most {@link #MAX_STORE_BYTES} is read:
     * a named pipe or device would block the scheduler's thread, and a huge file would be read
     * into memory here and again by {@code SslFactory}.
     */
    private static StoreFingerprint fingerprint(Path file) throws IOException {
        Path real = file.toRealPath();
        BasicFileAttributes attributes = Files.readAttributes(real, BasicFileAttributes.class);
        if (!attributes.isRegularFile()) {
            throw new IOException(real + " is not a regular file");
        }
        if (attributes.size() > MAX_STORE_BYTES) {
            throw new IOException(real + " has " + attributes.size() + " bytes, more than a store may have ("
                + MAX_STORE_BYTES + ")");
        }
        byte[] content;
        try (InputStream in = Files.newInputStream(real)) {
            content = in.readNBytes((int) MAX_STORE_BYTES + 1);
        }
        if (content.length > MAX_STORE_BYTES) {
            throw new IOException(real + " grew beyond " + MAX_STORE_BYTES + " bytes while read");
        }
        try {
            return new StoreFingerprint(real, content.length,
                HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
