package io.tributary.adminui.groups;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.testing.BrowserSteps;
import io.tributary.adminui.testing.RestProxyCalls;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
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
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Consumer groups, run by {@code AdminUiBrowserIT} on its one-broker cluster: a group that committed part
 * of a topic shows its lag in the list and on its page; a reset to earliest from the UI makes the lag the
 * whole topic; while a consumer is in the group a reset is refused with the proxy's message; after the
 * group consumed everything a refresh shows lag 0; resets to an offset and to a time move it back; the
 * page fits a phone; deleting it from the UI removes it.
 */
public final class GroupLagResetBrowserSteps extends BrowserSteps {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final URI restProxy;

    /** @param restProxy the REST proxy the UI reads through, asked directly to check what the UI showed */
    public GroupLagResetBrowserSteps(WebDriver browser, WebDriverWait wait, URI ui, String bootstrap,
            Path screenshots, URI restProxy) {
        super(browser, wait, ui, bootstrap, screenshots);
        this.restProxy = restProxy;
    }

    @Override
    public void run() throws Exception {
        browser.manage().window().setSize(new Dimension(1280, 900));
        String clusterId = RestProxyCalls.clusterId(restProxy);
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
        try (KafkaConsumer<String, String> consumer = consumer(group)) {
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

        try (KafkaConsumer<String, String> consumer = consumer(group)) {
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
        URI groupUri = restProxy.resolve("/v3/clusters/" + clusterId + "/consumer-groups/" + group);
        wait.until(d -> {
            try {
                return RestProxyCalls.get(groupUri).body().matches("(?s).*\"state\"\\s*:\\s*\"EMPTY\".*");
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
        assertThat(RestProxyCalls.get(groupUri).statusCode()).as("the proxy no longer knows the group").isEqualTo(404);
    }

    private KafkaConsumer<String, String> consumer(String group) {
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

    /** The cells after the topic of a row of the group page's offsets table (re-read if the 5 s refresh replaced it). */
    private List<String> partitionRow(String topic, int partition) {
        By cells = By.cssSelector("#offsets tr[data-partition='" + topic + "-" + partition + "'] td");
        return readFresh(() -> browser.findElements(cells).stream().map(e -> e.getText().trim()).toList());
    }
}
