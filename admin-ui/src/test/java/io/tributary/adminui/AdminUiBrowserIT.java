package io.tributary.adminui;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.testing.ClusterProcesses;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The admin UI end to end: a real broker and REST proxy (their packaged jars, own JVMs), this UI
 * in-process, and headless Chromium driven by Selenium through the overview, topic creation,
 * filtering, the topic page and deletion. Screenshots of each page go to {@code screenshots.dir}.
 *
 * <p>Needs {@code /usr/bin/chromium} and {@code /usr/bin/chromedriver} (Debian {@code chromium},
 * {@code chromium-driver}); without them it fails, it does not skip.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AdminUiBrowserIT {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Duration WAIT = Duration.ofSeconds(30);

    private ClusterProcesses cluster;
    private ConfigurableApplicationContext app;
    private WebDriver browser;
    private WebDriverWait wait;
    private URI ui;
    private Path screenshots;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    void start() throws Exception {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            throw new AssertionError("AdminUiBrowserIT needs " + CHROMIUM + " and " + CHROMEDRIVER
                + ": apt-get install -y chromium chromium-driver (.ci/run does this)");
        }
        screenshots = Path.of(System.getProperty("screenshots.dir", "target/screenshots"));
        Files.createDirectories(screenshots);
        cluster = ClusterProcesses.start();
        app = SpringApplication.run(AdminUiApplication.class, "--server.port=0", "--server.address=127.0.0.1",
            "--admin-ui.rest-proxy-url=" + cluster.restProxyUrl());
        ui = URI.create("http://127.0.0.1:" + ((WebServerApplicationContext) app).getWebServer().getPort());

        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toString());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
            "--window-size=1280,900", "--user-data-dir=" + Files.createTempDirectory("admin-ui-chromium"));
        browser = new ChromeDriver(options);
        wait = new WebDriverWait(browser, WAIT);
    }

    @AfterAll
    void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (app != null) {
            app.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void overviewCreateFilterOpenAndDeleteATopic() throws Exception {
        String clusterId = get(cluster.restProxyUrl().resolve("/v3/clusters")).body()
            .replaceAll("(?s).*\"cluster_id\"\\s*:\\s*\"([^\"]+)\".*", "$1");
        String topic = "ui-orders-" + Long.toHexString(System.nanoTime());

        // Overview: the cluster id the proxy reports, one broker, broker 0 in the table.
        browser.get(ui.resolve("/#/").toString());
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("cluster-id"), clusterId));
        assertThat(text("#cluster-id")).isEqualTo(clusterId);
        assertThat(text("#broker-count")).isEqualTo("1");
        assertThat(text("#controller-id")).isEqualTo("0");
        assertThat(text("#offline-count")).isEqualTo("0");
        assertThat(browser.findElements(By.cssSelector("#brokers tbody tr"))).hasSize(1);
        assertThat(text("#brokers tbody tr td")).isEqualTo("0");
        screenshot("overview");

        // Topics: create one from the form.
        browser.findElement(By.cssSelector("nav a[href='#/topics']")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("new-name")));
        browser.findElement(By.id("new-name")).sendKeys(topic);
        clearAndType("new-partitions", "3");
        clearAndType("new-replication", "1");
        browser.findElement(By.id("new-configs")).sendKeys("cleanup.policy=compact");
        browser.findElement(By.id("create-topic")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("status"), "Topic " + topic + " created."));

        // The same name again: the proxy's (Kafka's) message shows as an alert.
        browser.findElement(By.id("new-name")).sendKeys(topic);
        browser.findElement(By.id("create-topic")).click();
        WebElement alert = wait.until(ExpectedConditions.visibilityOfElementLocated(
            By.cssSelector(".form-message [role=alert]")));
        assertThat(alert.getText()).contains(topic).containsIgnoringCase("already exists");

        // The filter finds it, with its partition count and replication factor.
        browser.findElement(By.id("filter")).sendKeys("ui-orders");
        // The list is reloaded after typing stops: wait for the one of the whole filter.
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("topic-total"), "matching “ui-orders”"));
        By row = By.cssSelector("tr[data-topic='" + topic + "']");
        wait.until(ExpectedConditions.visibilityOfElementLocated(row));
        assertThat(text("#topic-total")).startsWith("1 topic");
        List<WebElement> cells = browser.findElement(row).findElements(By.tagName("td"));
        assertThat(cells.get(0).getText()).isEqualTo("3");
        assertThat(cells.get(1).getText()).isEqualTo("1");
        assertThat(cells.get(2).getText()).isEqualTo("0");
        screenshot("topics");

        // Topic page: three partitions, each led by broker 0 with ISR [0]; the config set at creation.
        browser.findElement(row).findElement(By.linkText(topic)).click();
        wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#partitions tbody tr"), 3));
        assertThat(text("#topic-name")).isEqualTo(topic);
        for (WebElement partition : browser.findElements(By.cssSelector("#partitions tbody tr"))) {
            List<WebElement> values = partition.findElements(By.tagName("td"));
            assertThat(values.get(0).getText()).as("leader").isEqualTo("0");
            assertThat(values.get(1).getText()).as("replicas").isEqualTo("[0]");
            assertThat(values.get(2).getText()).as("ISR").isEqualTo("[0]");
            assertThat(values.get(3).getText()).as("out of sync").isEqualTo("[]");
            assertThat(values.get(4).getText()).as("start offset").isEqualTo("0");
            assertThat(values.get(5).getText()).as("end offset").isEqualTo("0");
        }
        WebElement cleanup = browser.findElement(By.xpath("//table[@id='configs']//tr[th='cleanup.policy']/td[1]"));
        assertThat(cleanup.getText()).isEqualTo("compact");
        screenshot("topic");

        // The topics page at phone width: the layout holds (screenshot only).
        browser.manage().window().setSize(new Dimension(390, 844));
        browser.findElement(By.linkText("← All topics")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("filter")));
        screenshot("topics-phone");
        browser.manage().window().setSize(new Dimension(1280, 900));

        // Delete through the confirmation dialog; cancelling first keeps it.
        WebElement filter = browser.findElement(By.id("filter"));
        filter.sendKeys(topic);
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("topic-total"), "matching “" + topic + "”"));
        wait.until(ExpectedConditions.visibilityOfElementLocated(row));
        By deleteButton = By.cssSelector("button[data-delete='" + topic + "']");
        browser.findElement(deleteButton).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm")));
        assertThat(text("#confirm-text")).contains(topic);
        browser.findElement(By.id("confirm-cancel")).click();
        wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("confirm")));
        assertThat(browser.findElements(row)).hasSize(1);

        browser.findElement(deleteButton).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm-delete"))).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("status"), "Topic " + topic + " deleted."));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("topic-total"), "0 topics"));
        assertThat(browser.findElements(row)).isEmpty();
        assertThat(get(cluster.restProxyUrl().resolve("/v3/clusters/" + clusterId + "/topics/" + topic)).statusCode())
            .as("the proxy no longer knows the topic").isEqualTo(404);
    }

    @Test
    void produceBrowseSearchAndTailMessages() throws Exception {
        new io.tributary.adminui.messages.MessagesBrowserSteps(browser, wait, ui, cluster.bootstrapServers(),
            screenshots).run();
    }

    @Test
    void readinessIncludesTheRestProxyAndPrometheusIsServed() throws Exception {
        HttpResponse<String> readiness = get(ui.resolve("/actuator/health/readiness"));
        assertThat(readiness.statusCode()).isEqualTo(200);
        assertThat(readiness.body()).contains("\"restProxy\"").contains("\"UP\"");
        HttpResponse<String> prometheus = get(ui.resolve("/actuator/prometheus"));
        assertThat(prometheus.statusCode()).isEqualTo(200);
        assertThat(prometheus.body()).contains("jvm_memory_used_bytes");
    }

    private String text(String css) {
        return browser.findElement(By.cssSelector(css)).getText().trim();
    }

    private void clearAndType(String id, String value) {
        WebElement input = browser.findElement(By.id(id));
        input.clear();
        input.sendKeys(value);
    }

    private void screenshot(String name) throws IOException {
        Path shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(shot, screenshots.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    private HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString());
    }
}
