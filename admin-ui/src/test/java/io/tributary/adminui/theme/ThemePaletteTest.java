package io.tributary.adminui.theme;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The palette of {@code static/css/theme.css}: text colours on the backgrounds they are used on meet
 * WCAG 2.x AA contrast (4.5:1 for text, 3:1 for the focus outline) in the light and the dark theme,
 * and no other stylesheet or script of the UI has a colour of its own.
 */
class ThemePaletteTest {

    private static final Pattern VARIABLE =
        Pattern.compile("--([a-z-]+):\\s*light-dark\\(\\s*(#[0-9a-fA-F]{6})\\s*,\\s*(#[0-9a-fA-F]{6})\\s*\\)");
    /** A colour written out: #rgb, #rrggbb, rgb(), hsl() and the like. */
    private static final Pattern LITERAL_COLOUR =
        Pattern.compile("#[0-9a-fA-F]{3,8}\\b(?![-\\w])|\\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\\(");
    private static final Path STATIC = Path.of("src/main/resources/static");

    /** Text (foreground) on background, as the stylesheets pair them. */
    private static final List<String[]> TEXT_PAIRS = List.of(
        new String[] {"fg", "bg"}, new String[] {"fg", "card"},
        new String[] {"muted", "bg"}, new String[] {"muted", "card"},
        new String[] {"accent", "bg"}, new String[] {"accent", "card"},
        new String[] {"on-accent", "accent"}, new String[] {"on-danger", "danger"},
        new String[] {"danger", "card"}, new String[] {"danger", "error-bg"},
        new String[] {"warn-fg", "warn-bg"}, new String[] {"ok", "bg"}, new String[] {"ok", "card"});

    @Test
    void textColoursMeetWcagAaOnTheirBackgroundsInBothThemes() {
        Map<String, String[]> palette = palette();
        for (int theme = 0; theme < 2; theme++) {
            for (String[] pair : TEXT_PAIRS) {
                String fg = palette.get(pair[0])[theme];
                String bg = palette.get(pair[1])[theme];
                assertThat(contrast(fg, bg)).as("--%s %s on --%s %s (%s theme)", pair[0], fg, pair[1], bg,
                    theme == 0 ? "light" : "dark").isGreaterThanOrEqualTo(4.5);
            }
            for (String bg : List.of("bg", "card")) {
                assertThat(contrast(palette.get("focus")[theme], palette.get(bg)[theme]))
                    .as("the focus outline on --%s (%s theme)", bg, theme == 0 ? "light" : "dark")
                    .isGreaterThanOrEqualTo(3.0);
            }
        }
    }

    @Test
    void contrastIsComputedAsWcagDefinesIt() {
        assertThat(contrast("#000000", "#ffffff")).isEqualTo(21.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(contrast("#777777", "#ffffff")).isEqualTo(4.48, org.assertj.core.data.Offset.offset(0.01));
        assertThat(contrast("#ffffff", "#777777")).as("symmetric").isEqualTo(contrast("#777777", "#ffffff"));
    }

    @Test
    void stylesheetsAndScriptsUseTheThemeVariablesOnly() throws IOException {
        try (Stream<Path> files = Files.walk(STATIC)) {
            List<String> offending = files
                .filter(f -> f.toString().endsWith(".css") || f.toString().endsWith(".js"))
                .filter(f -> !f.getFileName().toString().equals("theme.css"))
                .flatMap(f -> {
                    try {
                        List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
                        return java.util.stream.IntStream.range(0, lines.size())
                            .filter(i -> LITERAL_COLOUR.matcher(withoutUrls(lines.get(i))).find())
                            .mapToObj(i -> STATIC.relativize(f) + ":" + (i + 1) + ": " + lines.get(i).trim());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                })
                .toList();
            assertThat(offending).as("colours written out instead of theme.css's variables").isEmpty();
        }
    }

    /** Drops "#/topics"-like fragments of links and routes, which are not colours. */
    private static String withoutUrls(String line) {
        return line.replaceAll("#/[^'\"`\\s]*", "").replaceAll("href=\"[^\"]*\"", "");
    }

    /** name → {light, dark}, from theme.css on the class path. */
    static Map<String, String[]> palette() {
        try (InputStream in = ThemePaletteTest.class.getResourceAsStream("/static/css/theme.css")) {
            assertThat(in).as("static/css/theme.css on the class path").isNotNull();
            String css = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            Map<String, String[]> palette = new LinkedHashMap<>();
            Matcher m = VARIABLE.matcher(css);
            while (m.find()) {
                palette.put(m.group(1), new String[] {m.group(2), m.group(3)});
            }
            assertThat(palette).containsKeys("fg", "bg", "card", "muted", "accent", "danger", "focus");
            return palette;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** WCAG 2.x contrast ratio of two #rrggbb colours, 1 to 21. */
    static double contrast(String a, String b) {
        double la = luminance(a);
        double lb = luminance(b);
        return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
    }

    /** WCAG 2.x relative luminance of an sRGB #rrggbb colour. */
    private static double luminance(String hex) {
        int rgb = Integer.parseInt(hex.substring(1), 16);
        return 0.2126 * linear((rgb >> 16) & 0xff) + 0.7152 * linear((rgb >> 8) & 0xff) + 0.0722 * linear(rgb & 0xff);
    }

    private static double linear(int channel) {
        double c = channel / 255.0;
        return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    }
}
