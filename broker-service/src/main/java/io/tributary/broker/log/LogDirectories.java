package io.tributary.broker.log;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log directories of one broker ({@code log.dirs}) as directories: their {@code .lock}, held
 * while the broker runs so no second broker process (or broker in this JVM) uses them; their
 * {@code meta.properties}, naming the cluster and broker that own them; and which of them are
 * offline after an I/O error (KIP-112, the state Kafka's {@code LogDirFailureChannel} reports).
 * The partition logs inside them are the {@link LogManager}'s.
 *
 * <p>Invariants: the list of directories never changes; a directory once offline stays offline
 * until the broker restarts; a lock is held for a directory from {@link #lockAndVerify} until
 * {@link #releaseLocks}.
 *
 * <p>Thread-safety: the offline set is concurrent and {@link #isOffline}, {@link #markOffline},
 * {@link #online()} and {@link #leastLoaded} may be called from any thread; locking and releasing
 * run on the thread that starts or stops the broker (the {@link LogManager}'s start and shutdown).
 */
final class LogDirectories {

    /** The directory lines keep the category they had before this class was split from {@link LogManager}. */
    private static final Logger log = LoggerFactory.getLogger(LogManager.class);

    static final String META_PROPERTIES = "meta.properties";
    static final String LOCK_FILE = ".lock";

    private final List<File> dirs;
    private final Map<File, FileLock> locks = new HashMap<>();
    private final Set<File> offline = ConcurrentHashMap.newKeySet();

    /**
     * @throws IllegalArgumentException when {@code dirs} is empty
     */
    LogDirectories(List<File> dirs) {
        if (dirs.isEmpty()) {
            throw new IllegalArgumentException("At least one log directory is required");
        }
        this.dirs = List.copyOf(dirs);
    }

    List<File> all() {
        return dirs;
    }

    /** The directories not offline, in configured order. */
    List<File> online() {
        return dirs.stream().filter(d -> !offline.contains(d)).toList();
    }

    boolean isOffline(File dir) {
        return offline.contains(dir);
    }

    /** A copy of the offline directories. */
    Set<File> offline() {
        return Set.copyOf(offline);
    }

    /**
     * Marks the log directory holding {@code file} offline.
     *
     * @param file a log directory, or a file or directory under one
     * @return that log directory, or null when {@code file} is in none or it was offline already
     */
    File markOffline(File file) {
        File logDir = dirs.stream().filter(d -> isUnder(file, d)).findFirst().orElse(null);
        if (logDir == null || !offline.add(logDir)) {
            return null;
        }
        return logDir;
    }

    private static boolean isUnder(File file, File dir) {
        for (File f = file.getAbsoluteFile(); f != null; f = f.getParentFile()) {
            if (f.equals(dir.getAbsoluteFile())) {
                return true;
            }
        }
        return false;
    }

    /**
     * The online log directory holding the fewest partitions (ties go to the first listed). With one
     * online directory the partitions are not counted: creating each of n partitions would otherwise
     * cost O(n).
     *
     * @param partitionParents the log directory of each partition log, one entry per log
     * @throws KafkaStorageException when every directory is offline
     */
    File leastLoaded(Supplier<Collection<File>> partitionParents) {
        Map<File, Integer> counts = new HashMap<>();
        dirs.stream().filter(d -> !offline.contains(d)).forEach(d -> counts.put(d, 0));
        if (counts.isEmpty()) {
            throw new KafkaStorageException("Every log directory is offline: " + dirs);
        }
        if (counts.size() == 1) {
            return counts.keySet().iterator().next();
        }
        for (File parent : partitionParents.get()) {
            counts.computeIfPresent(parent, (k, v) -> v + 1);
        }
        return counts.keySet().stream().min(Comparator.comparingInt((File d) -> counts.get(d))
            .thenComparingInt(dirs::indexOf)).orElseThrow();
    }

    /**
     * Creates and locks the directories, and checks or writes their {@code meta.properties}; on
     * failure releases the locks taken.
     *
     * @throws IllegalStateException when a directory is locked by another process or belongs to another
     *                               cluster or broker
     * @throws IOException           when a directory cannot be created or written
     */
    void lockAndVerify(String clusterId, int brokerId) throws IOException {
        boolean verified = false;
        try {
            for (File dir : dirs) {
                Files.createDirectories(dir.toPath());
                locks.put(dir, lockDir(dir));
                verifyMetaProperties(dir, clusterId, brokerId);
            }
            verified = true;
        } finally {
            if (!verified) {
                releaseLocks();
            }
        }
    }

    /** Takes the directory's {@code .lock}, held by another broker process or another broker in this JVM. */
    private static FileLock lockDir(File dir) throws IOException {
        RandomAccessFile raf = new RandomAccessFile(new File(dir, LOCK_FILE), "rw");
        FileLock lock;
        try {
            lock = raf.getChannel().tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        } catch (IOException | RuntimeException e) {
            raf.close();
            throw e;
        }
        if (lock == null) {
            raf.close();
            throw new IllegalStateException("Log directory " + dir + " is in use by another broker process");
        }
        return lock;
    }

    /** Releases every lock held; an error releasing one is logged and the others are still released. */
    void releaseLocks() {
        for (File dir : dirs) {
            FileLock lock = locks.remove(dir);
            if (lock != null) {
                try {
                    lock.release();
                    lock.channel().close();
                } catch (IOException e) {
                    log.warn("Could not release the lock of {}", dir, e);
                }
            }
        }
    }

    private static void verifyMetaProperties(File dir, String clusterId, int brokerId) throws IOException {
        File metaFile = new File(dir, META_PROPERTIES);
        Properties meta = new Properties();
        if (metaFile.exists()) {
            meta = Utils.loadProps(metaFile.getPath());
            String storedCluster = meta.getProperty("cluster.id");
            String storedBroker = meta.getProperty("broker.id");
            if (storedCluster != null && !storedCluster.equals(clusterId)) {
                throw new IllegalStateException("Log directory " + dir + " belongs to cluster " + storedCluster
                    + " but ZooKeeper holds cluster " + clusterId + "; point the broker at the right ZooKeeper "
                    + "or give it an empty log directory");
            }
            if (storedBroker != null && Integer.parseInt(storedBroker) != brokerId) {
                throw new IllegalStateException("Log directory " + dir + " belongs to broker " + storedBroker
                    + " but this broker's id is " + brokerId);
            }
        } else {
            meta.setProperty("version", "0");
            meta.setProperty("cluster.id", clusterId);
            meta.setProperty("broker.id", Integer.toString(brokerId));
            File tmp = new File(dir, META_PROPERTIES + ".tmp");
            try (var out = Files.newOutputStream(tmp.toPath())) {
                meta.store(out, "Written by Tributary; identifies the cluster and broker owning this directory");
            }
            Files.move(tmp.toPath(), metaFile.toPath(), StandardCopyOption.ATOMIC_MOVE);
        }
    }
}
