package io.tributary.deploy.docker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A Dockerfile read into its build stages and instructions: enough of the format for checking
 * what an image is built from, copies, exposes and runs (line continuations, comments, parser
 * directives, {@code FROM ... AS name}, flags such as {@code --from=} and exec-form JSON arrays).
 */
public final class Dockerfile {

    /** One instruction, e.g. {@code COPY --from=build a b}: keyword COPY, flags [--from=build], arguments [a, b]. */
    public record Instruction(String keyword, List<String> flags, List<String> arguments, String raw) {

        /** The value of a {@code --name=value} flag. */
        public Optional<String> flag(String name) {
            return flags.stream().filter(f -> f.startsWith("--" + name + "=")).map(f -> f.substring(name.length() + 3))
                .findFirst();
        }

        /** Whether the arguments were written in exec form, as a JSON array. */
        public boolean execForm() {
            return raw.startsWith("[");
        }
    }

    /** A build stage: its base image, its name (may be null) and its instructions after FROM. */
    public record Stage(String baseImage, String name, List<Instruction> instructions) {

        /** The stage's instructions with a keyword. */
        public List<Instruction> all(String keyword) {
            return instructions.stream().filter(i -> i.keyword.equals(keyword)).toList();
        }

        /** The last instruction with a keyword (the one in effect for USER, WORKDIR, ENTRYPOINT). */
        public Optional<Instruction> last(String keyword) {
            List<Instruction> found = all(keyword);
            return found.isEmpty() ? Optional.empty() : Optional.of(found.get(found.size() - 1));
        }
    }

    private final List<Stage> stages;

    private Dockerfile(List<Stage> stages) {
        this.stages = List.copyOf(stages);
    }

    /** Reads a Dockerfile. */
    public static Dockerfile read(Path file) {
        try {
            return parse(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Parses Dockerfile text.
     *
     * @throws IllegalArgumentException when an instruction comes before the first FROM
     */
    public static Dockerfile parse(String text) {
        List<Stage> stages = new ArrayList<>();
        List<Instruction> current = null;
        StringBuilder logical = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            String trimmed = line.strip();
            if (logical.length() == 0 && (trimmed.isEmpty() || trimmed.startsWith("#"))) {
                continue; // comments and parser directives (# syntax=...)
            }
            if (trimmed.startsWith("#")) {
                continue; // a comment inside a continued instruction
            }
            if (trimmed.endsWith("\\")) {
                logical.append(trimmed.substring(0, trimmed.length() - 1).strip()).append(' ');
                continue;
            }
            logical.append(trimmed);
            Instruction instruction = instruction(logical.toString().strip());
            logical.setLength(0);
            if (instruction.keyword.equals("FROM")) {
                List<String> args = instruction.arguments;
                String name = args.size() >= 3 && args.get(1).equalsIgnoreCase("AS") ? args.get(2) : null;
                current = new ArrayList<>();
                stages.add(new Stage(args.get(0), name, current));
            } else if (current == null) {
                if (!instruction.keyword.equals("ARG")) {
                    throw new IllegalArgumentException("Instruction before FROM: " + instruction.raw);
                }
            } else {
                current.add(instruction);
            }
        }
        return new Dockerfile(stages);
    }

    private static Instruction instruction(String line) {
        int space = line.indexOf(' ');
        String keyword = (space < 0 ? line : line.substring(0, space)).toUpperCase(Locale.ROOT);
        String rest = space < 0 ? "" : line.substring(space + 1).strip();
        List<String> flags = new ArrayList<>();
        while (rest.startsWith("--")) {
            int end = rest.indexOf(' ');
            flags.add(end < 0 ? rest : rest.substring(0, end));
            rest = end < 0 ? "" : rest.substring(end + 1).strip();
        }
        List<String> arguments = rest.startsWith("[") ? jsonArray(rest)
            : Arrays.stream(rest.split("\\s+")).filter(s -> !s.isEmpty()).toList();
        return new Instruction(keyword, List.copyOf(flags), arguments, rest);
    }

    /** A JSON array of strings, as exec-form instructions use (no escapes beyond \" and \\). */
    private static List<String> jsonArray(String text) {
        if (!text.endsWith("]")) {
            throw new IllegalArgumentException("Unterminated JSON array: " + text);
        }
        List<String> items = new ArrayList<>();
        int i = 1;
        while (i < text.length() - 1) {
            char c = text.charAt(i);
            if (c == '"') {
                StringBuilder item = new StringBuilder();
                i++;
                while (text.charAt(i) != '"') {
                    if (text.charAt(i) == '\\') {
                        i++;
                    }
                    item.append(text.charAt(i++));
                }
                items.add(item.toString());
            } else if (c != ',' && !Character.isWhitespace(c)) {
                throw new IllegalArgumentException("Not a JSON array of strings: " + text);
            }
            i++;
        }
        return items;
    }

    /** The stages in order; the last one is the image. */
    public List<Stage> stages() {
        return stages;
    }

    /** The final stage, whose file system is the image. */
    public Stage runtime() {
        return stages.get(stages.size() - 1);
    }

    /**
     * The stage a {@code --from=} names.
     *
     * @throws IllegalArgumentException when no stage has that name
     */
    public Stage stage(String name) {
        return stages.stream().filter(s -> name.equals(s.name())).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("No stage named " + name));
    }
}
