package io.tributary.adminui.groups;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.testing.BrowserSteps;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The consumer group list filtered by state and by topic, with each group's coordinator, and a group's
 * page refreshing itself: an empty group on topic a (everything committed) and a stable one on topic b
 * (its member stays while the steps run); after 7 more records on a, the empty group's page shows lag 7
 * with no click, and its lag chart has the new reading.
 */
public final class GroupMonitoringBrowserSteps extends BrowserSteps {

    public GroupMonitoringBrowserSteps(WebDriver browser, WebDriverWait wait, URI ui, String bootstrap,
            Path screenshots) {
        super(browser, wait, ui, bootstrap, screenshots);
    }

    @Override
    public void run() throws Exception {
        String topicA = createTopic("ui-mon-a-", 1);
        String topicB = createTopic("ui-mon-b-", 1);
        String suffix = Long.toHexString(System.nanoTime());
        String emptyGroup = "ui-mon-empty-" + suffix;
        String liveGroup = "ui-mon-live-" + suffix;
        produce(topicA, 5);
        produce(topicB, 5);
        try (KafkaConsumer<String, String> done = consumer(emptyGroup)) {
            done.subscribe(List.of(topicA));
            consumeUntil(done, 5);
            done.commitSync();
        }
        try (KafkaConsumer<String, String> live = consumer(liveGroup)) {
            live.subscribe(List.of(topicB));
            consumeUntil(live, 5);
            live.commitSync();
            listFilteredByStateAndTopic(suffix, emptyGroup, liveGroup, topicA);
        }
        pageRefreshesItselfWithNewLag(emptyGroup, topicA);
    }

    private void listFilteredByStateAndTopic(String suffix, String emptyGroup, String liveGroup, String topicA)
            throws Exception {
        browser.get(ui.resolve("/#/groups").toString());
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("group-filter"))).sendKeys(suffix);
        wait.until(ExpectedConditions.textToBe(By.id("group-total"), "2 groups matching “" + suffix + "”"));
        By emptyRow = By.cssSelector("tr[data-group='" + emptyGroup + "']");
        By liveRow = By.cssSelector("tr[data-group='" + liveGroup + "']");
        wait.until(d -> d.findElement(liveRow).findElement(By.cssSelector(".group-state")).getText().equals("Stable"));
        assertThat(browser.findElement(emptyRow).findElement(By.cssSelector(".group-coordinator")).getText())
            .as("the coordinator's broker id").matches("\\d+");

        Select state = new Select(browser.findElement(By.id("group-state-filter")));
        state.selectByValue("EMPTY");
        wait.until(ExpectedConditions.textToBe(By.id("group-total"),
            "1 group matching “" + suffix + "” in state empty"));
        assertThat(browser.findElements(emptyRow)).hasSize(1);
        assertThat(browser.findElements(liveRow)).isEmpty();
        state.selectByValue("STABLE");
        wait.until(ExpectedConditions.textToBe(By.id("group-total"),
            "1 group matching “" + suffix + "” in state stable"));
        assertThat(browser.findElements(liveRow)).hasSize(1);

        state.selectByValue("");
        browser.findElement(By.id("group-topic-filter")).sendKeys(topicA);
        wait.until(ExpectedConditions.textToBe(By.id("group-total"),
            "1 group matching “" + suffix + "” reading topic “" + topicA + "”"));
        assertThat(browser.findElements(emptyRow)).hasSize(1);
        assertThat(browser.findElements(liveRow)).isEmpty();
        screenshot("groups-filtered");
    }

    private void pageRefreshesItselfWithNewLag(String group, String topic) throws Exception {
        browser.get(ui.resolve("/#/groups/" + group).toString());
        wait.until(ExpectedConditions.textToBe(By.id("group-id"), group));
        assertThat(browser.findElement(By.id("group-lag")).getText()).isEqualTo("0");
        assertThat(browser.findElement(By.id("group-coordinator")).getText()).matches("\\d+");
        WebElement chart = browser.findElement(By.id("lag-chart"));
        assertThat(chart.getAttribute("data-last")).isEqualTo("0");

        produce(topic, 7);
        // No click: the page asks again every 5 s.
        wait.until(ExpectedConditions.textToBe(By.id("group-lag"), "7"));
        chart = browser.findElement(By.id("lag-chart"));
        assertThat(chart.getAttribute("data-last")).isEqualTo("7");
        assertThat(Integer.parseInt(chart.getAttribute("data-points"))).isGreaterThanOrEqualTo(2);
        assertThat(browser.findElement(By.cssSelector("#lag-chart polyline")).getAttribute("points")).contains(",");
        screenshot("group-lag-history");

        WebElement pause = browser.findElement(By.id("group-auto-refresh"));
        pause.click();
        assertThat(pause.getAttribute("aria-pressed")).isEqualTo("true");
        assertThat(pause.getText()).isEqualTo("Resume auto-refresh");
        pause.click();
        assertThat(pause.getAttribute("aria-pressed")).isEqualTo("false");
    }

    private void produce(String topic, int count) throws Exception {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, 0, "k" + i, "v" + i)).get(30, TimeUnit.SECONDS);
            }
        }
    }

    private KafkaConsumer<String, String> consumer(String group) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer());
    }

    private static void consumeUntil(KafkaConsumer<String, String> consumer, int count) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        int seen = 0;
        while (seen < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Consumed " + seen + " of " + count + " records within 60 s");
            }
            seen += consumer.poll(Duration.ofMillis(500)).count();
        }
    }
}
