package io.tributary.deploy.readme;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Compares a command's output with the lines a README documents for it: {@code …} stands for any text
 * within a line, a run of blanks for any run of blanks; leading and trailing blank lines and trailing
 * blanks are not compared; lines match in order, or in any order (each documented line matching a
 * different output line, and no output line left over).
 */
final class OutputPattern {

    static final String ANYTHING = "…";

    private OutputPattern() {
    }

    static boolean matches(List<String> documented, String actual, boolean anyOrder) {
        List<Pattern> expected = trim(documented).stream().map(OutputPattern::linePattern).toList();
        List<String> lines = trim(actual.lines().toList());
        if (expected.size() != lines.size()) {
            return false;
        }
        if (!anyOrder) {
            for (int i = 0; i < lines.size(); i++) {
                if (!expected.get(i).matcher(lines.get(i)).matches()) {
                    return false;
                }
            }
            return true;
        }
        return assign(expected, 0, lines, new boolean[lines.size()]);
    }

    /** A documented line as a regular expression. */
    static Pattern linePattern(String line) {
        StringBuilder regex = new StringBuilder();
        String[] words = line.strip().split("\\s+", -1);
        for (int w = 0; w < words.length; w++) {
            if (w > 0) {
                regex.append("\\s+");
            }
            String[] parts = words[w].split(ANYTHING, -1);
            for (int p = 0; p < parts.length; p++) {
                if (p > 0) {
                    regex.append(".*?");
                }
                if (!parts[p].isEmpty()) {
                    regex.append(Pattern.quote(parts[p]));
                }
            }
        }
        // Leading blanks are indentation in the README, compared as "some or none".
        return Pattern.compile("\\s*" + regex);
    }

    // Backtracking: each documented line takes a different output line (a handful of lines per step).
    private static boolean assign(List<Pattern> expected, int next, List<String> lines, boolean[] used) {
        if (next == expected.size()) {
            return true;
        }
        for (int i = 0; i < lines.size(); i++) {
            if (!used[i] && expected.get(next).matcher(lines.get(i)).matches()) {
                used[i] = true;
                if (assign(expected, next + 1, lines, used)) {
                    return true;
                }
                used[i] = false;
            }
        }
        return false;
    }

    private static List<String> trim(List<String> lines) {
        List<String> trimmed = new ArrayList<>(lines.stream().map(String::stripTrailing).toList());
        while (!trimmed.isEmpty() && trimmed.get(0).isEmpty()) {
            trimmed.remove(0);
        }
        while (!trimmed.isEmpty() && trimmed.get(trimmed.size() - 1).isEmpty()) {
            trimmed.remove(trimmed.size() - 1);
        }
        return trimmed;
    }
}
