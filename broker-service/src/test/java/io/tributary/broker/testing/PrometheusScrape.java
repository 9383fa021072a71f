package io.tributary.broker.testing;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * One scrape of {@code /actuator/prometheus} in the text format, parsed into samples, so tests can
 * ask for a series by name and a subset of its labels.
 */
public final class PrometheusScrape {

    /** One sample line: {@code name{labels} value}. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    private final List<Sample> samples;

    private PrometheusScrape(List<Sample> samples) {
        this.samples = samples;
    }

    /** Scrapes {@code http://127.0.0.1:port/actuator/prometheus}; fails unless it answers 200. */
    public static PrometheusScrape of(int httpPort) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + httpPort + "/actuator/prometheus")).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new AssertionError("/actuator/prometheus answered " + response.statusCode() + ": " + response.body());
        }
        return parse(response.body());
    }

    /** Parses the Prometheus text format. */
    public static PrometheusScrape parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int brace = line.indexOf('{');
            int space = line.lastIndexOf(' ');
            String name;
            Map<String, String> labels = new HashMap<>();
            if (brace >= 0 && brace < space) {
                name = line.substring(0, brace);
                String body = line.substring(brace + 1, line.lastIndexOf('}'));
                int i = 0;
                while (i < body.length()) {
                    int eq = body.indexOf('=', i);
                    int open = eq + 1;
                    int close = body.indexOf('"', open + 1);
                    while (body.charAt(close - 1) == '\\') {
                        close = body.indexOf('"', close + 1);
                    }
                    labels.put(body.substring(i, eq).trim(), body.substring(open + 1, close));
                    i = close + 1;
                    if (i < body.length() && body.charAt(i) == ',') {
                        i++;
                    }
                }
            } else {
                name = line.substring(0, space);
            }
            samples.add(new Sample(name.trim(), labels, Double.parseDouble(line.substring(space + 1).trim())));
        }
        return new PrometheusScrape(samples);
    }

    /** The samples of series {@code name} carrying every label of {@code labels} (pairs of name and value). */
    public List<Sample> samples(String name, String... labels) {
        List<Sample> out = new ArrayList<>();
        outer:
        for (Sample s : samples) {
            if (!s.name().equals(name)) {
                continue;
            }
            for (int i = 0; i + 1 < labels.length; i += 2) {
                if (!labels[i + 1].equals(s.labels().get(labels[i]))) {
                    continue outer;
                }
            }
            out.add(s);
        }
        return out;
    }

    /** The value of the one sample of {@code name} with these labels, if there is one. */
    public OptionalDouble value(String name, String... labels) {
        List<Sample> found = samples(name, labels);
        if (found.size() > 1) {
            throw new AssertionError(found.size() + " samples of " + name + " match " + List.of(labels) + ": " + found);
        }
        return found.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(found.get(0).value());
    }

    /** The sum of the samples of {@code name} with these labels (0 when none). */
    public double sum(String name, String... labels) {
        return samples(name, labels).stream().mapToDouble(Sample::value).sum();
    }
}
