package io.tributary.deploy.readme;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.deploy.Repository;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of the repository's Markdown pages (README.md, docs/, k8s/, ...) leads somewhere: to
 * a file or directory of the repository and, with a {@code #fragment}, to a heading of that page, by
 * GitHub's anchor rules. Links to web addresses are not followed.
 */
class MarkdownLinksTest {

    // [text](target) and ![alt](target); the target ends at a blank or ')', an optional "title" after it.
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
    private static final Set<String> SKIPPED_DIRECTORIES = Set.of(".git", "target", "node_modules");

    @Test
    void everyRelativeLinkResolvesToAFileAndItsHeading() throws IOException {
        List<Path> pages = markdownPages();
        assertThat(pages).contains(Repository.path("README.md"));
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            for (Link link : links(page)) {
                String problem = problem(page, link.target());
                if (problem != null) {
                    broken.add(Repository.root().relativize(page) + ":" + link.line() + ": " + link.target() + " (" + problem + ")");
                }
            }
        }
        assertThat(broken).as("broken links").isEmpty();
    }

    @Test
    void anchorsFollowGitHubsRules() {
        assertThat(anchors(List.of("# Share groups: queues (KIP-932)", "## The REST proxy: sign-in, ACLs per HTTP user, rate"
            + " limits, HTTPS", "### 1. Topics, with Kafka's own tools", "## On Kubernetes: the chart's security values",
            "## Use `bin/quickstart`", "## Notes", "## Notes")))
            .containsExactlyInAnyOrder("share-groups-queues-kip-932", "the-rest-proxy-sign-in-acls-per-http-user-rate-limits-https",
                "1-topics-with-kafkas-own-tools", "on-kubernetes-the-charts-security-values", "use-binquickstart", "notes",
                "notes-1");
    }

    private record Link(int line, String target) {
    }

    private static List<Path> markdownPages() throws IOException {
        List<Path> pages = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Repository.root())) {
            files.filter(file -> file.getFileName().toString().endsWith(".md"))
                .filter(file -> {
                    for (Path part : Repository.root().relativize(file)) {
                        if (SKIPPED_DIRECTORIES.contains(part.toString())) {
                            return false;
                        }
                    }
                    return true;
                })
                .sorted().forEach(pages::add);
        }
        return pages;
    }

    /** The links outside fenced code blocks and code spans. */
    private static List<Link> links(Path page) {
        List<Link> links = new ArrayList<>();
        boolean fenced = false;
        List<String> lines = lines(page);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.stripLeading().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher matcher = LINK.matcher(line.replaceAll("`[^`]*`", "``"));
            while (matcher.find()) {
                links.add(new Link(i + 1, matcher.group(1)));
            }
        }
        return links;
    }

    /** What is wrong with a link from {@code page}, or null. */
    private static String problem(Path page, String target) {
        if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
            return null; // https:, mailto:, ...
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        String fragment = hash < 0 ? null : target.substring(hash + 1);
        Path resolved = file.isEmpty() ? page : page.getParent().resolve(URLDecoder.decode(file, StandardCharsets.UTF_8)).normalize();
        if (!resolved.startsWith(Repository.root())) {
            return "outside the repository";
        }
        if (!Files.exists(resolved)) {
            return "no such file";
        }
        if (fragment != null && !fragment.isEmpty()) {
            if (!resolved.getFileName().toString().endsWith(".md") || Files.isDirectory(resolved)) {
                return "a fragment of a page that is not Markdown";
            }
            if (!anchors(lines(resolved)).contains(fragment)) {
                return "no heading #" + fragment + " in " + Repository.root().relativize(resolved);
            }
        }
        return null;
    }

    /** The anchors GitHub gives a page's headings (outside fenced blocks). */
    static Set<String> anchors(List<String> lines) {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : lines) {
            if (line.stripLeading().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            Matcher heading = HEADING.matcher(line);
            if (fenced || !heading.matches()) {
                continue;
            }
            String slug = heading.group(1).toLowerCase(Locale.ROOT)
                .replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1")
                .replaceAll("[^\\p{L}\\p{N} _-]", "")
                .replace(' ', '-');
            int count = seen.merge(slug, 1, Integer::sum);
            anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
        }
        return anchors;
    }

    private static List<String> lines(Path page) {
        try {
            return Files.readAllLines(page, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
