package io.tributary.broker.log;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A small text checkpoint file in Kafka's format:
 * <pre>
 *   0            (version)
 *   2            (number of entries)
 *   entry line
 *   entry line
 * </pre>
 * Written to a temporary file, fsynced, and renamed over the old one, so a crash leaves one
 * whole version. Used for the leader epoch checkpoint ({@code epoch startOffset}) and the
 * per-log-dir offset checkpoints ({@code topic partition offset}).
 *
 * <p>Thread-safe: writes and reads are serialised on the instance.
 *
 * @param <T> the entry type
 */
public final class CheckpointFile<T> {

    private static final int VERSION = 0;

    private final File file;
    private final Function<T, String> formatter;
    private final Function<String, T> parser;

    /**
     * @param file      the checkpoint file
     * @param formatter entry to line
     * @param parser    line to entry; throws on a malformed line
     */
    public CheckpointFile(File file, Function<T, String> formatter, Function<String, T> parser) {
        this.file = file;
        this.formatter = formatter;
        this.parser = parser;
    }

    public File file() {
        return file;
    }

    /** Replaces the file's entries. */
    public synchronized void write(List<T> entries) throws IOException {
        File tmp = new File(file.getPath() + ".tmp");
        try (FileOutputStream out = new FileOutputStream(tmp);
             Writer writer = new OutputStreamWriter(out, StandardCharsets.UTF_8)) {
            StringBuilder sb = new StringBuilder();
            sb.append(VERSION).append('\n').append(entries.size()).append('\n');
            for (T entry : entries) {
                sb.append(formatter.apply(entry)).append('\n');
            }
            writer.write(sb.toString());
            writer.flush();
            out.getFD().sync();
        }
        Files.move(tmp.toPath(), file.toPath(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * Reads the entries; an absent file has none.
     *
     * @throws IOException when the file is malformed (version, count or a line)
     */
    public synchronized List<T> read() throws IOException {
        if (!file.exists()) {
            return List.of();
        }
        try (BufferedReader reader = Files.newBufferedReader(file.toPath(), StandardCharsets.UTF_8)) {
            String versionLine = reader.readLine();
            if (versionLine == null || Integer.parseInt(versionLine.trim()) != VERSION) {
                throw new IOException("Checkpoint " + file + " has unknown version '" + versionLine + "'");
            }
            String countLine = reader.readLine();
            int count = Integer.parseInt(countLine == null ? "" : countLine.trim());
            List<T> entries = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                String line = reader.readLine();
                if (line == null) {
                    throw new IOException("Checkpoint " + file + " ends after " + i + " of " + count + " entries");
                }
                entries.add(parser.apply(line.trim()));
            }
            return entries;
        } catch (RuntimeException e) {
            throw new IOException("Malformed checkpoint " + file + ": " + e.getMessage(), e);
        }
    }
}
