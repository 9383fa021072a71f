package io.tributary.adminui;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.proxy.RestProxyLocator;
import io.tributary.adminui.security.SignInBrowserSteps;
import io.tributary.adminui.testing.ClusterProcesses;
import io.tributary.adminui.testing.StubRestProxy;
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
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The admin UI end to end: a real broker and REST proxy (their packaged jars, own JVMs), this UI
 * in-process, and headless Chromium driven by Selenium through the overview, topic creation,
 * filtering, the topic page and deletion; longer scenarios (share groups among them) are in the
 * {@code *BrowserSteps} classes.
 * Two tests start a second UI in this JVM: one with producing turned off on the same proxy, one on
 * a stub proxy of a cluster with brokers down; one starts a secured broker and proxy of its own and
 * a UI that signs users in ({@code SignInBrowserSteps}); one a UI on OAuth2 sign-in between a stub
 * provider and a stub proxy ({@code OAuth2SignInBrowserSteps}).
 * Screenshots of each step go to {@code screenshots.dir} (target/screenshots); one of each page, for
 * the docs, to {@code docs.screenshots.dir} (docs/screenshots, see {@code PageTourBrowserSteps}).
 *
 * <p>Over 500 lines because its processes are started once for every step (a broker, a proxy and
 * a browser cost most of the run on 2 cores); longer flows live in the {@code *BrowserSteps}
 * classes it calls.
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
            // No proxy URL: the UI finds the proxy registered in the cluster's ZooKeeper.
            "--admin-ui.zookeeper-connect=" + cluster.zookeeperConnect(),
            "--admin-ui.broker-metrics-port=" + cluster.brokerHttpPort(), "--admin-ui.metrics-interval=1s");
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

        // Overview: the cluster id the proxy reports, one broker up and none down, broker 0 in the table.
        browser.get(ui.resolve("/#/").toString());
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("cluster-id"), clusterId));
        assertThat(text("#cluster-id")).isEqualTo(clusterId);
        assertThat(text("#broker-count")).isEqualTo("1");
        assertThat(text("#controller-id")).isEqualTo("0");
        assertThat(text("#offline-count")).isEqualTo("0");
        assertThat(browser.findElements(By.cssSelector("#brokers tbody tr"))).hasSize(1);
        assertThat(text("#brokers tbody tr td")).isEqualTo("0");
        assertThat(text("#brokers tr[data-broker='0'] td.broker-status")).as("status, in words").isEqualTo("Up");
        assertThat(text("#broker-down-count")).isEqualTo("0");
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

        // Tick it and delete through the confirmation dialog; cancelling first keeps it.
        WebElement filter = browser.findElement(By.id("filter"));
        filter.sendKeys(topic);
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("topic-total"), "matching “" + topic + "”"));
        wait.until(ExpectedConditions.visibilityOfElementLocated(row));
        browser.findElement(By.cssSelector("input[data-select='" + topic + "']")).click();
        By deleteButton = By.id("delete-selected");
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

    /**
     * Consumer groups: a group that committed part of a topic shows its lag in the list and on its
     * page; a reset to earliest from the UI makes the lag the whole topic; while a consumer is in the
     * group a reset is refused with the proxy's message; after the group consumed everything a refresh
     * shows lag 0; deleting it from the UI removes it.
     */
    @Test
    void consumerGroupLagResetConsumeAndDelete() throws Exception {
        browser.manage().window().setSize(new Dimension(1280, 900));
        String clusterId = clusterId();
        String bootstrap = bootstrapServers(clusterId);
        String suffix = Long.toHexString(System.nanoTime());
        String topic = "ui-groups-" + suffix;
        String group = "ui-group-" + suffix;
        int records = 10;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        Properties producerConfig = new Properties();
        producerConfig.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(topic, i % 2, "k" + i, "v" + i)).get(30, TimeUnit.SECONDS);
            }
        }
        // Five records per partition; the group commits 3 of partition 0 and 1 of partition 1: lag 10 - 4 = 6.
        TopicPartition p0 = new TopicPartition(topic, 0);
        TopicPartition p1 = new TopicPartition(topic, 1);
        try (KafkaConsumer<String, String> consumer = consumer(bootstrap, group)) {
            consumer.subscribe(List.of(topic));
            consumeUntil(consumer, 1);
            consumer.commitSync(Map.of(p0, new OffsetAndMetadata(3), p1, new OffsetAndMetadata(1)));
        }

        // The list: filtered to the group, empty, no members, lag 6.
        browser.get(ui.resolve("/#/").toString());
        wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("nav a[href='#/groups']"))).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("group-filter"))).sendKeys(group);
        wait.until(ExpectedConditions.textToBe(By.id("group-total"), "1 group matching “" + group + "”"));
        By row = By.cssSelector("tr[data-group='" + group + "']");
        List<WebElement> cells = wait.until(ExpectedConditions.visibilityOfElementLocated(row))
            .findElements(By.tagName("td"));
        assertThat(cells.get(0).getText()).as("state").isEqualTo("Empty");
        assertThat(cells.get(1).getText()).as("members").isEqualTo("0");
        assertThat(cells.get(2).getText()).as("total lag").isEqualTo("6");
        screenshot("groups");

        // The group's page: per partition committed offset, end offset and lag.
        browser.findElement(row).findElement(By.linkText(group)).click();
        wait.until(ExpectedConditions.textToBe(By.id("group-id"), group));
        assertThat(text("#group-state")).isEqualTo("Empty");
        assertThat(text("#group-members")).isEqualTo("0");
        assertThat(text("#group-lag")).isEqualTo("6");
        assertThat(partitionRow(topic, 0)).containsExactly("0", "3", "5", "2", "–");
        assertThat(partitionRow(topic, 1)).containsExactly("1", "1", "5", "4", "–");
        screenshot("group");

        // Reset to earliest for all topics, through the confirmation dialog: lag is the whole topic.
        browser.findElement(By.id("reset-earliest")).click();
        browser.findElement(By.id("reset-submit")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm")));
        assertThat(text("#confirm-text")).contains(group).contains("earliest offset");
        browser.findElement(By.id("confirm-ok")).click();
        wait.until(ExpectedConditions.textToBe(By.id("reset-done"), "Offsets of 2 partitions reset."));
        wait.until(ExpectedConditions.textToBe(By.id("group-lag"), String.valueOf(records)));
        assertThat(partitionRow(topic, 0)).containsExactly("0", "0", "5", "5", "–");
        assertThat(partitionRow(topic, 1)).containsExactly("1", "0", "5", "5", "–");

        try (KafkaConsumer<String, String> consumer = consumer(bootstrap, group)) {
            consumer.subscribe(List.of(topic));
            consumeUntil(consumer, records);

            // A member now, nothing committed yet: the page shows it with the lag unchanged, and a reset is
            // refused with the proxy's (Kafka's) reason.
            // Stable once the member's joins settle (a classic consumer rejoins when the metadata it assigned
            // with changes, e.g. a new topic's partitions still arriving): refreshed until then.
            new WebDriverWait(browser, WAIT).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
                .ignoring(org.openqa.selenium.NoSuchElementException.class).until(d -> {
                d.findElement(By.id("group-refresh")).click();
                return "1".equals(text("#group-members")) && "Stable".equals(text("#group-state"));
            });
            assertThat(text("#group-lag")).isEqualTo(String.valueOf(records));
            assertThat(text("#members tbody tr td")).isEqualTo("ui-it-" + group);
            browser.findElement(By.id("reset-latest")).click();
            browser.findElement(By.id("reset-submit")).click();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm-ok"))).click();
            WebElement refused = wait.until(ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("#reset-form .form-message [role=alert]")));
            assertThat(refused.getText()).contains(group).contains("can only be reset when it is empty");
            consumer.commitSync();
        }

        // Everything consumed and committed, the consumer gone (the broker completes its leave on its own
        // time: wait for the proxy to say EMPTY): a refresh shows lag 0.
        URI groupUri = cluster.restProxyUrl().resolve("/v3/clusters/" + clusterId + "/consumer-groups/" + group);
        wait.until(d -> {
            try {
                return get(groupUri).body().matches("(?s).*\"state\"\\s*:\\s*\"EMPTY\".*");
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        browser.findElement(By.id("group-refresh")).click();
        wait.until(ExpectedConditions.textToBe(By.id("group-state"), "Empty"));
        assertThat(text("#group-lag")).isEqualTo("0");
        assertThat(text("#group-members")).isEqualTo("0");
        assertThat(partitionRow(topic, 0)).containsExactly("0", "5", "5", "0", "–");

        // Reset the one topic to offset 2 (both partitions: lag 3 + 3), then to a time before every record
        // (the datetime-local input is set by script: its typing format depends on the locale).
        browser.findElement(By.id("reset-offset")).click();
        clearAndType("reset-offset-value", "2");
        new Select(browser.findElement(By.id("reset-topic"))).selectByValue(topic);
        browser.findElement(By.id("reset-submit")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm")));
        assertThat(text("#confirm-text")).contains(topic).contains("offset 2");
        browser.findElement(By.id("confirm-ok")).click();
        wait.until(ExpectedConditions.textToBe(By.id("group-lag"), "6"));
        assertThat(partitionRow(topic, 0)).containsExactly("0", "2", "5", "3", "–");
        assertThat(partitionRow(topic, 1)).containsExactly("1", "2", "5", "3", "–");
        browser.findElement(By.id("reset-timestamp")).click();
        ((JavascriptExecutor) browser).executeScript("arguments[0].value = '2000-01-01T00:00:00'",
            browser.findElement(By.id("reset-time")));
        browser.findElement(By.id("reset-submit")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm-ok"))).click();
        wait.until(ExpectedConditions.textToBe(By.id("group-lag"), String.valueOf(records)));
        assertThat(partitionRow(topic, 0)).containsExactly("0", "0", "5", "5", "–");

        // Phone width: no page-wide horizontal scroll (wide tables scroll in their own region); dark theme.
        browser.manage().window().setSize(new Dimension(390, 844));
        wait.until(d -> (Boolean) ((JavascriptExecutor) d).executeScript(
            "return document.documentElement.scrollWidth <= document.documentElement.clientWidth"));
        screenshot("group-phone");
        browser.manage().window().setSize(new Dimension(1280, 900));
        ((ChromeDriver) browser).executeCdpCommand("Emulation.setEmulatedMedia",
            Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", "dark"))));
        screenshot("group-dark");
        ((ChromeDriver) browser).executeCdpCommand("Emulation.setEmulatedMedia", Map.of("features", List.of()));

        // Delete through the confirmation dialog: back on the list, the group is gone.
        browser.findElement(By.id("delete-group")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm")));
        assertThat(text("#confirm-text")).contains(group);
        browser.findElement(By.id("confirm-ok")).click();
        wait.until(ExpectedConditions.textToBe(By.id("status"), "Consumer group " + group + " deleted."));
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("group-filter"))).sendKeys(group);
        wait.until(ExpectedConditions.textToBe(By.id("group-total"), "0 groups matching “" + group + "”"));
        assertThat(browser.findElements(row)).isEmpty();
        assertThat(get(groupUri).statusCode()).as("the proxy no longer knows the group").isEqualTo(404);
    }

    private String clusterId() throws IOException, InterruptedException {
        return get(cluster.restProxyUrl().resolve("/v3/clusters")).body()
            .replaceAll("(?s).*\"cluster_id\"\\s*:\\s*\"([^\"]+)\".*", "$1");
    }

    /** host:port of the broker, as the proxy reports it. */
    private String bootstrapServers(String clusterId) throws IOException, InterruptedException {
        String brokers = get(cluster.restProxyUrl().resolve("/v3/clusters/" + clusterId + "/brokers")).body();
        String host = brokers.replaceAll("(?s).*\"host\"\\s*:\\s*\"([^\"]+)\".*", "$1");
        String port = brokers.replaceAll("(?s).*\"port\"\\s*:\\s*(\\d+).*", "$1");
        return host + ":" + port;
    }

    private static KafkaConsumer<String, String> consumer(String bootstrap, String group) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "ui-it-" + group);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer());
    }

    /** Polls until at least {@code count} records came, or fails after the wait. */
    private static void consumeUntil(KafkaConsumer<String, String> consumer, int count) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        int seen = 0;
        while (seen < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Consumed " + seen + " of " + count + " records within " + WAIT);
            }
            seen += consumer.poll(Duration.ofMillis(500)).count();
        }
    }

    /** The cells after the topic of a row of the group page's offsets table. */
    private List<String> partitionRow(String topic, int partition) {
        return browser.findElements(By.cssSelector("#offsets tr[data-partition='" + topic + "-" + partition + "'] td"))
            .stream().map(e -> e.getText().trim()).toList();
    }

    @Test
    void overviewThroughputChartShowsProducedMessages() throws Exception {
        new io.tributary.adminui.throughput.ThroughputBrowserSteps(browser, wait, ui, cluster.bootstrapServers(),
            screenshots).run();
    }

    @Test
    void produceBrowseSearchAndTailMessages() throws Exception {
        new io.tributary.adminui.messages.MessagesBrowserSteps(browser, wait, ui, cluster.bootstrapServers(),
            screenshots).run();
    }

    @Test
    void pageThroughMessagesWithOlderAndNewerAndStartAtATimestamp() throws Exception {
        new io.tributary.adminui.messages.MessagePagingBrowserSteps(browser, wait, ui, cluster.bootstrapServers(),
            screenshots).run();
    }

    @Test
    void filterMessagesByAnExpressionExpandARowAndExportTheShownRows() throws Exception {
        new io.tributary.adminui.messages.MessageFilterBrowserSteps(browser, wait, ui, cluster.bootstrapServers(),
            screenshots).run();
    }

    @Test
    void cancelAMessageSearchAndSearchAgain() throws Exception {
        new io.tributary.adminui.messages.MessageSearchCancelBrowserSteps(browser, wait, ui,
            cluster.bootstrapServers(), screenshots).run();
    }

    /** A second UI in this JVM, on the same proxy, with producing turned off; closed at the end. */
    @Test
    void withProduceTurnedOffTheMessageBrowserHasNoProduceForm() throws Exception {
        try (ConfigurableApplicationContext readOnly = SpringApplication.run(AdminUiApplication.class,
                "--server.port=0", "--server.address=127.0.0.1", "--admin-ui.rest-proxy-url=" + cluster.restProxyUrl(),
                "--admin-ui.broker-metrics-port=" + cluster.brokerHttpPort(), "--admin-ui.produce-enabled=false")) {
            URI readOnlyUi = URI.create("http://127.0.0.1:"
                + ((WebServerApplicationContext) readOnly).getWebServer().getPort());
            new io.tributary.adminui.messages.ProduceDisabledBrowserSteps(browser, wait, readOnlyUi,
                cluster.bootstrapServers(), screenshots).run();
        }
    }

    /** A second UI in this JVM on a stub proxy of a cluster with brokers down; closed at the end. */
    @Test
    void readCommittedMessagesAndAbortAnOpenTransaction() throws Exception {
        new io.tributary.adminui.transactions.TransactionsBrowserSteps(browser, wait, ui, cluster.bootstrapServers(),
            screenshots).run();
    }

    @Test
    void overviewListsBrokersThatAreDown() throws Exception {
        try (StubRestProxy degraded = io.tributary.adminui.cluster.BrokerStatusBrowserSteps.degradedCluster();
             ConfigurableApplicationContext degradedUi = SpringApplication.run(AdminUiApplication.class,
                 "--server.port=0", "--server.address=127.0.0.1", "--admin-ui.rest-proxy-url=" + degraded.url())) {
            URI degradedUiUrl = URI.create("http://127.0.0.1:"
                + ((WebServerApplicationContext) degradedUi).getWebServer().getPort());
            new io.tributary.adminui.cluster.BrokerStatusBrowserSteps(browser, wait, degradedUiUrl,
                cluster.bootstrapServers(), screenshots).run();
        }
    }

    /** A second UI in this JVM, started before its proxy (nothing listens at its URL yet); closed at the end. */
    @Test
    void aPageOpenedBeforeTheProxyIsUpWaitsAndLoadsOnceItAnswers() throws Exception {
        int proxyPort = io.tributary.testing.TestPorts.freePort();
        try (ConfigurableApplicationContext early = SpringApplication.run(AdminUiApplication.class,
                "--server.port=0", "--server.address=127.0.0.1", "--admin-ui.rest-proxy-url=http://127.0.0.1:" + proxyPort)) {
            URI earlyUi = URI.create("http://127.0.0.1:" + ((WebServerApplicationContext) early).getWebServer().getPort());
            new io.tributary.adminui.proxy.ProxyWaitBrowserSteps(browser, wait, earlyUi, proxyPort, screenshots).run();
        }
    }

    @Test
    void shareGroupMembersConfigsAndDelete() throws Exception {
        new io.tributary.adminui.sharegroups.ShareGroupsBrowserSteps(browser, wait, ui, cluster.bootstrapServers(),
            screenshots).run();
    }

    @Test
    void topicListTogglesInternalTopicsSortsShowsSizesAndDeletesSeveral() throws Exception {
        new io.tributary.adminui.topics.TopicsListBrowserSteps(browser, wait, ui, cluster.bootstrapServers(),
            screenshots).run();
    }

    @Test
    void shareGroupMetricsOfAnUnreachableBrokerAreDashes() throws Exception {
        try (ConfigurableApplicationContext blindUi = SpringApplication.run(AdminUiApplication.class,
                "--server.port=0", "--server.address=127.0.0.1", "--admin-ui.zookeeper-connect="
                    + cluster.zookeeperConnect(), "--admin-ui.broker-metrics-urls.0=http://127.0.0.1:"
                    + io.tributary.testing.TestPorts.freePort() + "/actuator/prometheus")) {
            URI blindUiUrl = URI.create("http://127.0.0.1:"
                + ((WebServerApplicationContext) blindUi).getWebServer().getPort());
            new io.tributary.adminui.sharegroups.ShareGroupsBrowserSteps(browser, wait, blindUiUrl,
                cluster.bootstrapServers(), screenshots).metricsOfAnUnreachableBrokerAreDashes();
        }
    }

    @Test
    void editTopicConfigsAddPartitionsAndSeeSizesOnDisk() throws Exception {
        new io.tributary.adminui.topics.TopicEditBrowserSteps(browser, wait, ui, cluster.bootstrapServers(),
            screenshots).run();
    }

    @Test
    void brokersListConfigsWithSourcesAndLogDirs() throws Exception {
        new io.tributary.adminui.brokers.BrokersBrowserSteps(browser, wait, ui, cluster.bootstrapServers(),
            screenshots).run();
    }

    @Test
    void consumerGroupsFilterByStateAndTopicAndRefreshThemselves() throws Exception {
        new io.tributary.adminui.groups.GroupMonitoringBrowserSteps(browser, wait, ui, cluster.bootstrapServers(),
            screenshots).run();
    }

    @Test
    void brokerAndReassignmentControlsOnlyForWhomTheBrokersAllow() throws Exception {
        new io.tributary.adminui.brokers.BrokerRightsBrowserSteps(browser, wait).run();
    }

    @Test
    void reassignAPartitionToAnotherBroker() throws Exception {
        io.tributary.adminui.reassignments.ReassignmentBrowserSteps.runOnTwoBrokers(browser, wait, screenshots);
    }

    @Test
    void securityPagesManageAclsUsersAndQuotasForUsersAllowedOnly() throws Exception {
        new io.tributary.adminui.access.SecurityPagesBrowserSteps(browser, wait, screenshots).run();
    }

    /** Controls of the page's main area that have no accessible name (label, aria-label, labelledby, text, title). */
    private static final String UNLABELLED_CONTROLS = "return Array.from(document.querySelectorAll("
        + "'main input, main select, main textarea, main button')).filter(e => e.type !== 'hidden').filter(e => {"
        + " const labelledBy = e.getAttribute('aria-labelledby');"
        + " const name = (e.getAttribute('aria-label') || '').trim()"
        + "  || (e.labels && e.labels.length ? e.labels[0].textContent.trim() : '')"
        + "  || (labelledBy && document.getElementById(labelledBy) ? document.getElementById(labelledBy).textContent.trim() : '')"
        + "  || (e.tagName === 'BUTTON' ? e.textContent.trim() : '') || (e.getAttribute('title') || '').trim();"
        + " return !name; }).map(e => e.outerHTML.slice(0, 160));";

    @Test
    void theKeyboardReachesEveryPageAndEveryControlHasAName() throws Exception {
        browser.manage().window().setSize(new Dimension(1280, 900));
        JavascriptExecutor js = (JavascriptExecutor) browser;
        org.openqa.selenium.interactions.Actions keys = new org.openqa.selenium.interactions.Actions(browser);
        // From a fresh page, the first Tab lands on "Skip to content"; Enter moves focus to the main area.
        browser.get(ui.resolve("/?keyboard=0#/").toString());
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("overview-title")));
        keys.sendKeys(org.openqa.selenium.Keys.TAB).perform();
        assertThat(browser.switchTo().activeElement().getText()).isEqualTo("Skip to content");
        keys.sendKeys(org.openqa.selenium.Keys.ENTER).perform();
        wait.until(d -> "view".equals(((JavascriptExecutor) d).executeScript("return document.activeElement.id")));
        String[][] pages = {{"Topics", "topics-title", "#/topics"}, {"Consumer groups", "groups-title", "#/groups"},
            {"Share groups", "share-groups-title", "#/share-groups"},
            {"Transactions", "transactions-title", "#/transactions"}, {"Brokers", "brokers-title", "#/brokers"},
            {"Reassignments", "reassignments-title", "#/reassignments"}, {"Overview", "overview-title", "#/"}};
        for (int p = 0; p < pages.length; p++) {
            String[] page = pages[p];
            // Tab from the top of a freshly loaded page until the navigation link has focus, then follow it.
            browser.get(ui.resolve("/?keyboard=" + (p + 1) + "#/").toString());
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("overview-title")));
            for (int i = 0; i < 10 && !page[0].equals(browser.switchTo().activeElement().getText()); i++) {
                keys.sendKeys(org.openqa.selenium.Keys.TAB).perform();
            }
            assertThat(browser.switchTo().activeElement().getText()).as("Tab reaches the %s link", page[0])
                .isEqualTo(page[0]);
            keys.sendKeys(org.openqa.selenium.Keys.ENTER).perform();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id(page[1])));
            assertThat(browser.getCurrentUrl()).endsWith(page[2]);
            wait.until(d -> d.findElements(By.cssSelector("main .loading")).isEmpty());
            @SuppressWarnings("unchecked")
            List<String> unlabelled = (List<String>) js.executeScript(UNLABELLED_CONTROLS);
            assertThat(unlabelled).as("controls without an accessible name on %s", page[2]).isEmpty();
            assertThat(browser.findElements(By.cssSelector("nav[aria-label] a[aria-current='page']")))
                .as("the current page is marked in the navigation").hasSize(1);
        }
    }

    /** Tab reaches every control of every page, each with an accessible name and a visible focus. */
    @Test
    void theKeyboardReachesEveryControlOfEveryPageWithANameAndAVisibleFocus() throws Exception {
        new io.tributary.adminui.pages.KeyboardBrowserSteps(browser, wait, ui, cluster.bootstrapServers(),
            screenshots).run();
    }

    /** Every page at 1280×800 and 390×844, the Menu button, the Theme control; the docs' screenshots. */
    @Test
    void everyPageFitsAPhoneAndADesktopAndIsPhotographedForTheDocs() throws Exception {
        Path docsScreenshots = Path.of(System.getProperty("docs.screenshots.dir", "target/docs-screenshots"));
        new io.tributary.adminui.pages.PageTourBrowserSteps(browser, wait, ui, cluster.bootstrapServers(),
            screenshots, docsScreenshots).run();
    }

    @Test
    void signedInUsersSeeOnlyWhatTheBrokersLetThemDo() throws Exception {
        new SignInBrowserSteps(browser, wait, screenshots).run();
    }

    /** A UI of its own on OAuth2 sign-in, with a stub provider and a stub proxy (no cluster). */
    @Test
    void usersSignInWithOAuth2ThroughTheProvidersRedirect() throws Exception {
        new io.tributary.adminui.security.OAuth2SignInBrowserSteps(browser, wait, screenshots).run();
    }

    @Test
    void readinessIncludesTheRestProxyFoundInZooKeeperHealthHasNoUnknownAndPrometheusIsServed() throws Exception {
        HttpResponse<String> readiness = get(ui.resolve("/actuator/health/readiness"));
        assertThat(readiness.statusCode()).isEqualTo(200);
        assertThat(readiness.body()).contains("\"restProxy\"").contains("\"UP\"");
        RestProxyLocator locator = app.getBean(RestProxyLocator.class);
        assertThat(locator.isDiscovered()).isTrue();
        assertThat(locator.current()).as("the proxy registered in ZooKeeper").isEqualTo(cluster.restProxyUrl());
        // With ZooKeeper discovery on: every health component UP (the zookeeper connection among them), none UNKNOWN.
        java.util.Map<String, String> health = io.tributary.adminui.health.HealthComponentsTest.statuses(
            tools.jackson.databind.json.JsonMapper.builder().build().readTree(get(ui.resolve("/actuator/health")).body()), "");
        assertThat(health).containsEntry("zookeeper", "UP").doesNotContainKey("discoveryComposite")
            .allSatisfy((name, status) -> assertThat(status).as(name).isEqualTo("UP"));
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
