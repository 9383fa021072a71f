package io.tributary.adminui.pages;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/admin-ui.md's "Screenshots" section: one heading a page route ("### Topics (`#/topics`)"), each
 * with at least one screenshot of {@code docs/screenshots} that exists; every page of the navigation
 * and of the browser test's tour ({@link UiPage#ALL}) is there, the tour visits every page of the
 * navigation, and no screenshot file is left unshown.
 * The files themselves are written by {@link PageTourBrowserSteps}.
 */
class AdminUiScreenshotsTest {

    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Path DOC = REPO.resolve("docs/admin-ui.md");
    private static final Path SCREENSHOTS = REPO.resolve("docs/screenshots");
    private static final Path INDEX = Path.of("src/main/resources/static/index.html");
    private static final Pattern ROUTE_HEADING = Pattern.compile("^### .*\\(`#(/[^`]*)`\\)\\s*$");
    private static final Pattern IMAGE = Pattern.compile("!\\[([^\\]]*)\\]\\(screenshots/([^)\\s]+)\\)");
    private static final Pattern NAV_LINK = Pattern.compile("<a href=\"#(/[^\"]*)\" data-nav=");
    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G'};

    @Test
    void everyRouteOfTheSectionShowsAScreenshotThatExists() throws IOException {
        Map<String, List<String>> section = screenshotSection();
        assertThat(section).as("routes under ## Screenshots").isNotEmpty();
        List<String> problems = new ArrayList<>();
        section.forEach((route, images) -> {
            if (images.isEmpty()) {
                problems.add(route + ": no screenshot");
            }
            for (String image : images) {
                Path file = SCREENSHOTS.resolve(image);
                if (!isPng(file)) {
                    problems.add(route + ": docs/screenshots/" + image + " is missing or not a PNG");
                }
            }
        });
        assertThat(problems).isEmpty();
    }

    @Test
    void everyPageOfTheNavigationAndOfTheTourIsInTheSection() throws IOException {
        Map<String, List<String>> section = screenshotSection();
        Matcher nav = NAV_LINK.matcher(Files.readString(INDEX, StandardCharsets.UTF_8));
        List<String> navRoutes = new ArrayList<>();
        while (nav.find()) {
            navRoutes.add(nav.group(1));
        }
        assertThat(navRoutes).as("the navigation's links in index.html").isNotEmpty();
        assertThat(section.keySet()).as("routes with screenshots in docs/admin-ui.md").containsAll(navRoutes);
        assertThat(UiPage.ALL.stream().map(UiPage::route).toList())
            .as("pages the browser test tours, tabs through and photographs (UiPage.ALL)").containsAll(navRoutes);
        for (UiPage page : UiPage.ALL) {
            String documented = section.keySet().stream()
                .filter(route -> page.route().matches(route.replaceAll("\\{[^}]+}", "[^/]+")))
                .findFirst().orElse(null);
            assertThat(documented).as("a heading of docs/admin-ui.md for the tour's %s", page.route()).isNotNull();
            assertThat(section.get(documented)).as("screenshots of %s", documented).contains(page.screenshot());
        }
    }

    @Test
    void everyScreenshotFileIsShown() throws IOException {
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        try (Stream<Path> files = Files.list(SCREENSHOTS)) {
            List<String> unshown = files.map(f -> f.getFileName().toString())
                .filter(name -> !doc.contains("](screenshots/" + name + ")")).sorted().toList();
            assertThat(unshown).as("files of docs/screenshots that docs/admin-ui.md does not show").isEmpty();
        }
    }

    /** Route → the screenshot files under its heading, in the order of the section. */
    private static Map<String, List<String>> screenshotSection() throws IOException {
        List<String> lines = Files.readAllLines(DOC, StandardCharsets.UTF_8);
        int start = lines.indexOf("## Screenshots");
        assertThat(start).as("a \"## Screenshots\" section in docs/admin-ui.md").isNotNegative();
        Map<String, List<String>> section = new LinkedHashMap<>();
        List<String> current = null;
        for (String line : lines.subList(start + 1, lines.size())) {
            if (line.startsWith("## ")) {
                break;
            }
            Matcher heading = ROUTE_HEADING.matcher(line);
            if (heading.matches()) {
                current = section.computeIfAbsent(heading.group(1), r -> new ArrayList<>());
                continue;
            }
            Matcher image = IMAGE.matcher(line);
            while (current != null && image.find()) {
                assertThat(image.group(1).trim()).as("alt text of screenshots/%s", image.group(2)).isNotEmpty();
                current.add(image.group(2));
            }
        }
        return section;
    }

    private static boolean isPng(Path file) {
        try {
            byte[] head = new byte[PNG.length];
            try (var in = Files.newInputStream(file)) {
                return in.read(head) == PNG.length && java.util.Arrays.equals(head, PNG);
            }
        } catch (IOException e) {
            return false;
        }
    }
}
