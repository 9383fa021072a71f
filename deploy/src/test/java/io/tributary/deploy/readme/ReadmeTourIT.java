package io.tributary.deploy.readme;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.deploy.HttpGet;
import io.tributary.deploy.Repository;
import io.tributary.testing.TestPorts;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's tour, run as written: the README is the script. It starts the platform as the README
 * says ({@code bin/quickstart}, the jars built by the modules before this one, as the README's build
 * command builds them), then runs every marked command in order in one bash session, as a user types
 * them into a second terminal, and checks that each prints what the README shows (see
 * {@link ReadmeTour} for the markup and how outputs compare). Last it stops the quickstart and checks
 * what that prints.
 *
 * <p>It is also the test of {@code bin/quickstart}'s start and stop ({@code QuickstartIT} has the ways it
 * refuses or fails to start): once the banner shows, the three parts answer their readiness checks and the
 * banner's Swagger UI, admin UI and metrics addresses answer 200; the terminal has the banner only (the parts'
 * output goes to their logs) and nothing on stderr; the script runs three JVMs, and on SIGTERM it stops them
 * all and exits 0 once the broker has shut down.
 *
 * <p>It runs in a directory laid out as a fresh checkout after the build: the repository's {@code bin/}
 * and the built jars, no {@code data/} or {@code logs/}. The README's ports (9092, 8090, 8082, 8080) are
 * moved to free ones through {@code bin/quickstart}'s variables, and replaced in the commands and the
 * outputs. It needs what {@code .ci/run} installs: kcat and curl.
 */
class ReadmeTourIT {

    private static final Duration START_TIMEOUT = Duration.ofMinutes(4);
    private static final Duration STEP_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration RETRY_TIMEOUT = Duration.ofSeconds(90);
    private static final Pattern README_PORT = Pattern.compile(":(9092|8090|8082|8080)\\b");

    @TempDir
    Path checkout;

    private Process quickstart;
    private Process shell;
    private OutputStream shellInput;
    private final Map<String, String> ports = new HashMap<>();
    private final List<Path> links = new ArrayList<>();
    private int stepCount;

    @AfterEach
    void stopEverything() throws InterruptedException {
        if (shell != null) {
            List<ProcessHandle> started = shell.descendants().toList();
            shell.destroy();
            started.forEach(ProcessHandle::destroy);
            if (!shell.waitFor(30, TimeUnit.SECONDS)) {
                shell.destroyForcibly();
            }
            started.forEach(ProcessHandle::destroyForcibly);
        }
        if (quickstart != null && quickstart.isAlive()) {
            List<ProcessHandle> parts = quickstart.descendants().toList();
            quickstart.destroy();
            if (!quickstart.waitFor(90, TimeUnit.SECONDS)) {
                quickstart.destroyForcibly();
            }
            parts.forEach(ProcessHandle::destroyForcibly);
        }
        // The links go first, so that removing the directory does not warn about them.
        for (Path link : links) {
            try {
                Files.deleteIfExists(link);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @Test
    void everyCommandOfTheTourPrintsWhatTheReadmeShows() throws Exception {
        ReadmeTour tour = ReadmeTour.parse(Files.readString(Repository.path("README.md")));
        List<ReadmeTour.Step> steps = tour.steps();
        assertThat(steps).as("the README's tour steps").hasSizeGreaterThan(2);
        ReadmeTour.Step start = steps.get(0);
        ReadmeTour.Step stop = steps.get(steps.size() - 1);
        assertThat(start.has(ReadmeTour.Option.START)).as("the first step starts the platform: %s", start).isTrue();
        assertThat(stop.has(ReadmeTour.Option.STOP)).as("the last step stops it: %s", stop).isTrue();

        layOutCheckout();
        String banner = startQuickstart(start);
        everyPartAnswers(banner);
        startShell();
        for (ReadmeTour.Step step : steps.subList(1, steps.size() - 1)) {
            assertThat(step.command()).as("%s", step).isNotNull();
            run(step);
        }
        stopQuickstart(stop, banner);
    }

    /** The repository's bin/ (copied, so the scripts find this directory as their root) and the built jars. */
    private void layOutCheckout() throws IOException {
        Path bin = Files.createDirectories(checkout.resolve("bin"));
        try (Stream<Path> scripts = Files.list(Repository.path("bin"))) {
            for (Path script : scripts.toList()) {
                Files.copy(script, bin.resolve(script.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        String version = Repository.projectVersion();
        for (String module : List.of("broker-service", "rest-proxy", "admin-ui")) {
            String jar = module + "/target/" + module + "-" + version + ".jar";
            link(jar);
        }
        link("kafka-tools-runtime/target/classpath.txt");
        Files.copy(Repository.path("kafka-tools-runtime/tools-log4j2.properties"),
            checkout.resolve("kafka-tools-runtime/tools-log4j2.properties"));
    }

    private void link(String relative) throws IOException {
        Path target = Repository.path(relative);
        assertThat(target).as("built by the modules before deploy").exists();
        Path link = checkout.resolve(relative);
        Files.createDirectories(link.getParent());
        Files.createSymbolicLink(link, target);
        links.add(link);
    }

    /** Starts bin/quickstart on free ports and waits for it to print what the README shows; returns that. */
    private String startQuickstart(ReadmeTour.Step start) throws IOException {
        String build = "mvn -B -q package -DskipTests &&";
        assertThat(start.command()).as("the README's start command: the build (done by Maven before this test), then"
            + " bin/quickstart").isEqualTo(build + " bin/quickstart");
        int base = TestPorts.consecutive(5);
        ports.put("9092", Integer.toString(base));
        ports.put("8090", Integer.toString(base + 1));
        ports.put("8082", Integer.toString(base + 3));
        ports.put("8080", Integer.toString(base + 4));
        ProcessBuilder builder = new ProcessBuilder(checkout.resolve("bin/quickstart").toString()).directory(checkout.toFile())
            .redirectOutput(checkout.resolve("quickstart.out").toFile())
            .redirectError(checkout.resolve("quickstart.err").toFile());
        builder.environment().putAll(Map.of("KAFKA_PORT", ports.get("9092"), "BROKER_HTTP_PORT", ports.get("8090"),
            "BROKER_EMBEDDED_ZOOKEEPER_PORT", Integer.toString(base + 2), "REST_PROXY_PORT", ports.get("8082"),
            "ADMIN_UI_PORT", ports.get("8080"), "JAVA_OPTS", (jvmFlags() + " -Xmx256m").trim()));
        quickstart = builder.start();
        List<String> expected = withTestPorts(start.output());
        try {
            await().atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(500)).until(() -> {
                assertThat(quickstart.isAlive()).as("bin/quickstart exited:%n%s%n%s", read("quickstart.out"),
                    read("quickstart.err")).isTrue();
                return OutputPattern.matches(expected, read("quickstart.out"), false);
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(mismatch(start, expected, read("quickstart.out"), read("quickstart.err")), e);
        }
        return read("quickstart.out");
    }

    /**
     * Once the banner shows, every part answers, and so do the banner's addresses; the parts' own output goes
     * to their logs, not to the terminal (the banner matched the README's line for line).
     */
    private void everyPartAnswers(String banner) {
        for (String port : List.of("8090", "8082", "8080")) {
            assertThat(HttpGet.status("http://127.0.0.1:" + ports.get(port) + "/actuator/health/readiness"))
                .as("readiness on the README's port %s", port).isEqualTo(200);
        }
        for (String address : List.of("http://localhost:8082/swagger-ui/index.html", "http://localhost:8080/",
                "http://localhost:8090/actuator/prometheus")) {
            assertThat(HttpGet.status(withTestPorts(address))).as("%s", address).isEqualTo(200);
        }
        assertThat(banner.lines().count()).isLessThan(20);
        assertThat(banner).doesNotContain(" INFO ");
        assertThat(read("quickstart.err")).isEmpty();
        assertThat(read("logs/broker.log")).contains("Started BrokerApplication");
    }

    private void startShell() throws IOException {
        Files.createDirectories(checkout.resolve(".tour"));
        ProcessBuilder builder = new ProcessBuilder("bash", "--noprofile", "--norc").directory(checkout.toFile())
            .redirectOutput(checkout.resolve(".tour/shell.out").toFile())
            .redirectError(checkout.resolve(".tour/shell.err").toFile());
        // The tools' JVMs start with the build's options for short-lived JVMs.
        builder.environment().put("KAFKA_JVM_PERFORMANCE_OPTS", jvmFlags());
        shell = builder.start();
        shellInput = shell.getOutputStream();
    }

    /**
     * Runs a step in the shell until it prints what the README shows: once, or for a retry step (a state that
     * settles: a group forming, offsets committed) again every second, as a user would, for up to 90 s.
     */
    private void run(ReadmeTour.Step step) {
        String command = withTestPorts(step.command());
        List<String> expected = withTestPorts(step.output());
        boolean anyOrder = step.has(ReadmeTour.Option.ANY_ORDER);
        Attempt[] last = new Attempt[1];
        try {
            await().atMost(step.has(ReadmeTour.Option.RETRY) ? RETRY_TIMEOUT : STEP_TIMEOUT)
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofSeconds(1)).until(() -> {
                    last[0] = attempt(step, command);
                    boolean matched = last[0].status() == 0 && OutputPattern.matches(expected, last[0].stdout(), anyOrder);
                    if (!matched && !step.has(ReadmeTour.Option.RETRY)) {
                        throw new AssertionError(failure(step, expected, last[0]));
                    }
                    return matched;
                });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(last[0] == null ? step + " did not finish" : failure(step, expected, last[0]), e);
        }
    }

    private static String failure(ReadmeTour.Step step, List<String> expected, Attempt attempt) {
        return "exit status " + attempt.status() + "\n" + mismatch(step, expected, attempt.stdout(), attempt.stderr());
    }

    private record Attempt(int status, String stdout, String stderr) {
    }

    private Attempt attempt(ReadmeTour.Step step, String command) throws IOException {
        int n = ++stepCount;
        String out = ".tour/" + n + ".out";
        String err = ".tour/" + n + ".err";
        String status = ".tour/" + n + ".status";
        // One shell for the whole tour, as one terminal: background jobs stay its jobs. The status file appears
        // whole (written beside it, then renamed) once the command is done.
        String script = "{\n" + command + "\n} > " + out + " 2> " + err + " < /dev/null; echo $? > " + status + ".tmp; mv "
            + status + ".tmp " + status + "\n";
        shellInput.write(script.getBytes(StandardCharsets.UTF_8));
        shellInput.flush();
        Path statusFile = checkout.resolve(status);
        try {
            await().atMost(STEP_TIMEOUT).pollInterval(Duration.ofMillis(200)).until(() -> {
                assertThat(shell.isAlive()).as("the shell exited at %s:%n%s", step, read(".tour/shell.err")).isTrue();
                return Files.exists(statusFile);
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(step + " did not finish within " + STEP_TIMEOUT + ":\n" + read(out) + read(err), e);
        }
        return new Attempt(Integer.parseInt(Files.readString(statusFile).trim()), read(out), read(err));
    }

    /**
     * SIGTERM, as Ctrl-C: the script stops the three parts (its JVMs) and prints what the README shows after the
     * banner; the broker's log says it shut down.
     */
    private void stopQuickstart(ReadmeTour.Step stop, String banner) throws InterruptedException {
        List<ProcessHandle> parts = quickstart.descendants().toList();
        assertThat(parts.stream().filter(p -> p.info().commandLine().orElse("").contains(" -jar ")))
            .as("the JVMs bin/quickstart started").hasSize(3);
        quickstart.destroy();
        assertThat(quickstart.waitFor(90, TimeUnit.SECONDS)).as("bin/quickstart stops within 90 s").isTrue();
        assertThat(quickstart.exitValue()).as("%s", read("quickstart.err")).isZero();
        assertThat(parts).noneMatch(ProcessHandle::isAlive);
        String afterBanner = read("quickstart.out").substring(banner.length());
        if (!OutputPattern.matches(stop.output(), afterBanner, false)) {
            throw new AssertionError(mismatch(stop, stop.output(), afterBanner, read("quickstart.err")));
        }
        assertThat(read("logs/broker.log")).contains("Broker 0 shut down");
    }

    private List<String> withTestPorts(List<String> lines) {
        List<String> moved = new ArrayList<>();
        for (String line : lines) {
            moved.add(withTestPorts(line));
        }
        return moved;
    }

    private String withTestPorts(String text) {
        Matcher matcher = README_PORT.matcher(text);
        StringBuilder moved = new StringBuilder();
        while (matcher.find()) {
            matcher.appendReplacement(moved, ":" + ports.get(matcher.group(1)));
        }
        return matcher.appendTail(moved).toString();
    }

    private static String mismatch(ReadmeTour.Step step, List<String> expected, String stdout, String stderr) {
        return step + "\n--- the README shows" + (expected.isEmpty() ? " no output" : "") + "\n" + String.join("\n", expected)
            + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
    }

    private String read(String relative) {
        Path file = checkout.resolve(relative);
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }


    private static String jvmFlags() {
        return System.getProperty("test.jvm.flags", "").trim();
    }
}
