package io.tributary.deploy.readme;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The README's tour as a script: the steps marked with an HTML comment, in the order they appear.
 *
 * <p>Markup (invisible on GitHub): a line {@code <!-- tour -->}, or {@code <!-- tour: OPTIONS -->} with
 * comma-separated options, right before a fenced {@code sh} block makes that block a step. The fenced
 * {@code text} block that follows it (only blank lines between) is what the step prints on stdout; a step
 * without one must print nothing. Options:
 * <ul>
 *   <li>{@code start}: the command that starts the platform ({@code ... bin/quickstart}); its output block
 *       is what the script prints once ready;</li>
 *   <li>{@code stop}: marks a {@code text} block (no command) with what {@code bin/quickstart} prints when
 *       stopped;</li>
 *   <li>{@code retry}: run the step again until its output matches (the state it shows settles);</li>
 *   <li>{@code any order}: the output's lines may come in any order.</li>
 * </ul>
 * In an output block, {@code …} stands for any text within a line, and a run of blanks for any run of
 * blanks (tables are as wide as their content); leading and trailing blank lines and trailing blanks of
 * each line are not compared.
 */
record ReadmeTour(List<Step> steps) {

    /** A step's options, from its marker comment. */
    enum Option {
        START, STOP, RETRY, ANY_ORDER
    }

    /**
     * One marked step: its command ({@code null} for the stop marker), its documented output lines
     * (empty: prints nothing), its options, and the README line of its marker.
     */
    record Step(int line, Set<Option> options, String command, List<String> output) {

        boolean has(Option option) {
            return options.contains(option);
        }

        /** Whether {@code actual} (a whole stdout) is the documented output. */
        boolean matches(String actual) {
            return OutputPattern.matches(output, actual, has(Option.ANY_ORDER));
        }

        @Override
        public String toString() {
            return "README line " + line + " " + options + ": " + (command == null ? "(no command)" : command);
        }
    }

    private static final Pattern MARKER = Pattern.compile("^<!--\\s*tour(?::\\s*(.*?))?\\s*-->\\s*$");

    /** Parses the marked steps of a README's text. */
    static ReadmeTour parse(String markdown) {
        List<String> lines = markdown.lines().toList();
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher marker = MARKER.matcher(lines.get(i).trim());
            if (!marker.matches()) {
                continue;
            }
            int markerLine = i + 1;
            Set<Option> options = options(marker.group(1), markerLine);
            Fence first = Fence.read(lines, i + 1, markerLine);
            if (options.contains(Option.STOP)) {
                require(first.info().equals("text"), markerLine, "the stop marker must be followed by a ```text block");
                steps.add(new Step(markerLine, options, null, first.body()));
                i = first.end();
                continue;
            }
            require(first.info().equals("sh"), markerLine, "a tour marker must be followed by a ```sh block");
            List<String> output = List.of();
            int end = first.end();
            int next = skipBlank(lines, first.end() + 1);
            if (next < lines.size() && lines.get(next).startsWith("```text")) {
                Fence printed = Fence.read(lines, next, markerLine);
                output = printed.body();
                end = printed.end();
            }
            steps.add(new Step(markerLine, options, String.join("\n", first.body()), output));
            i = end;
        }
        return new ReadmeTour(List.copyOf(steps));
    }

    private static Set<Option> options(String text, int line) {
        Set<Option> options = EnumSet.noneOf(Option.class);
        if (text == null || text.isBlank()) {
            return options;
        }
        for (String option : text.split(",")) {
            String name = option.trim().toUpperCase(Locale.ROOT).replace(' ', '_');
            try {
                options.add(Option.valueOf(name));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("README line " + line + ": unknown tour option '" + option.trim() + "'");
            }
        }
        return options;
    }

    private static int skipBlank(List<String> lines, int from) {
        int i = from;
        while (i < lines.size() && lines.get(i).isBlank()) {
            i++;
        }
        return i;
    }

    private static void require(boolean condition, int line, String message) {
        if (!condition) {
            throw new IllegalArgumentException("README line " + line + ": " + message);
        }
    }

    /** A fenced block: its info string, its lines, and the index of its closing fence. */
    private record Fence(String info, List<String> body, int end) {

        static Fence read(List<String> lines, int from, int markerLine) {
            int open = skipBlank(lines, from);
            require(open < lines.size() && lines.get(open).startsWith("```"), markerLine,
                "a tour marker must be followed by a fenced block");
            String info = lines.get(open).substring(3).trim();
            for (int i = open + 1; i < lines.size(); i++) {
                if (lines.get(i).startsWith("```")) {
                    return new Fence(info, List.copyOf(lines.subList(open + 1, i)), i);
                }
            }
            throw new IllegalArgumentException("README line " + markerLine + ": a fenced block is not closed");
        }
    }
}
