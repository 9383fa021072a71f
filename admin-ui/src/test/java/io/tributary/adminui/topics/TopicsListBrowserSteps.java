package io.tributary.adminui.topics;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.testing.BrowserSteps;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
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
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The topic list end to end, run by {@code AdminUiBrowserIT}: three topics with known records (30 and
 * 5 values of {@value #VALUE_BYTES} bytes, and none) show their message counts and sizes on disk;
 * clicking (or pressing Enter on) the headers sorts by messages, size, partitions and name with
 * {@code aria-sort} saying how; {@code __consumer_offsets} shows only with "Show internal topics",
 * without a checkbox, and the overview counts it as internal; two ticked topics go in one confirmed
 * deletion that lists them. Screenshot {@code topics-sorted.png}.
 */
public final class TopicsListBrowserSteps extends BrowserSteps {

    private static final int VALUE_BYTES = 1000;

    /** A wait of its own that reads the list again when a load redrew it under the reader. */
    private final WebDriverWait redrawn;

    /** @param bootstrap the broker the steps create topics on and produce to */
    public TopicsListBrowserSteps(WebDriver browser, WebDriverWait wait, URI ui, String bootstrap, Path screenshots) {
        super(browser, wait, ui, bootstrap, screenshots);
        this.redrawn = new WebDriverWait(browser, java.time.Duration.ofSeconds(30));
        redrawn.ignoring(org.openqa.selenium.StaleElementReferenceException.class);
    }

    @Override
    public void run() throws Exception {
        browser.manage().window().setSize(new Dimension(1280, 900));
        String prefix = "ui-list-" + Long.toHexString(System.nanoTime()) + "-";
        String big = createTopic(prefix + "big-", 3);
        String small = createTopic(prefix + "small-", 1);
        String empty = createTopic(prefix + "empty-", 2);
        produce(big, 30);
        produce(small, 5);
        commitAnOffset(small); // __consumer_offsets exists from here on

        browser.get(ui.resolve("/#/topics").toString());
        filter(prefix);
        wait.until(ExpectedConditions.textToBe(By.id("topic-total"), "3 topics matching “" + prefix + "”"));

        // Message counts are exact here (no compaction, no transactions); sizes are the values plus framing.
        assertThat(cell(big, "data-messages")).isEqualTo("30");
        assertThat(cell(small, "data-messages")).isEqualTo("5");
        assertThat(cell(empty, "data-messages")).isEqualTo("0");
        assertThat(Long.parseLong(cell(big, "data-bytes"))).isBetween(30L * VALUE_BYTES, 30L * VALUE_BYTES + 6000);
        assertThat(Long.parseLong(cell(small, "data-bytes"))).isBetween(5L * VALUE_BYTES, 5L * VALUE_BYTES + 1000);
        assertThat(cell(empty, "data-bytes")).isEqualTo("0");
        assertThat(row(big).findElements(By.tagName("td")).get(3).getText()).matches("\\d+(\\.\\d)? KiB");
        assertThat(row(big).findElements(By.tagName("td")).get(4).getText()).isEqualTo("30");
        assertThat(text("#usage-note")).contains("approximate for compacted topics");

        // Sorting: a first click on Messages sorts the most first, a second the fewest first.
        waitForSort("name", "ascending");
        clickSort("messages");
        waitForOrder(big, small, empty);
        waitForSort("messages", "descending");
        waitForSort("name", "none");
        clickSort("messages");
        waitForOrder(empty, small, big);
        waitForSort("messages", "ascending");
        // From the keyboard: Enter on the Size header.
        browser.findElement(By.cssSelector("button[data-sort='size']")).sendKeys(Keys.ENTER);
        waitForOrder(big, small, empty);
        waitForSort("size", "descending");
        Path shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(shot, screenshots.resolve("topics-sorted.png"), StandardCopyOption.REPLACE_EXISTING);
        clickSort("partitions");
        waitForOrder(big, empty, small);
        clickSort("name");
        waitForOrder(big, empty, small);
        waitForSort("name", "ascending");

        // Internal topics: hidden (but counted) until asked for; never offered for deletion.
        filter("__consumer_offsets");
        wait.until(ExpectedConditions.textToBe(By.id("topic-total"),
            "0 topics matching “__consumer_offsets” (1 internal hidden)"));
        browser.findElement(By.id("show-internal")).click();
        wait.until(ExpectedConditions.textToBe(By.id("topic-total"),
            "1 topic matching “__consumer_offsets” (1 internal)"));
        assertThat(row("__consumer_offsets").getText()).contains("internal");
        assertThat(browser.findElements(By.cssSelector("input[data-select='__consumer_offsets']"))).isEmpty();
        assertThat(Long.parseLong(cell("__consumer_offsets", "data-messages"))).as("the commit").isPositive();
        browser.findElement(By.id("show-internal")).click();

        // Bulk delete: tick two (one from the keyboard), one dialog listing both, then only the third is left.
        filter(prefix);
        wait.until(ExpectedConditions.textToBe(By.id("topic-total"), "3 topics matching “" + prefix + "”"));
        browser.findElement(By.cssSelector("input[data-select='" + big + "']")).click();
        browser.findElement(By.cssSelector("input[data-select='" + small + "']")).sendKeys(Keys.SPACE);
        WebElement delete = browser.findElement(By.id("delete-selected"));
        assertThat(delete.getText()).isEqualTo("Delete 2 selected topics");
        delete.click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm")));
        assertThat(browser.findElements(By.cssSelector("#confirm-list li")).stream().map(WebElement::getText).toList())
            .containsExactlyInAnyOrder(big, small);
        browser.findElement(By.id("confirm-delete")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("status"), "2 topics deleted: "));
        wait.until(ExpectedConditions.textToBe(By.id("topic-total"), "1 topic matching “" + prefix + "”"));
        assertThat(browser.findElements(By.cssSelector("tr[data-topic]")).stream()
            .map(r -> r.getAttribute("data-topic")).toList()).containsExactly(empty);
        assertThat(browser.findElement(By.id("delete-selected")).isEnabled()).as("nothing ticked any more").isFalse();

        // The overview counts internal topics apart.
        browser.get(ui.resolve("/#/").toString());
        wait.until(ExpectedConditions.textMatches(By.id("topic-count"), java.util.regex.Pattern.compile(
            "\\d+ \\(\\d+ internal\\)")));
    }

    private void filter(String value) {
        WebElement input = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("filter")));
        input.clear();
        input.sendKeys(value);
    }

    private WebElement row(String topic) {
        return wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("tr[data-topic='" + topic + "']")));
    }

    /** An attribute of the topic's row's cell that has it (data-bytes, data-messages). */
    private String cell(String topic, String attribute) {
        return row(topic).findElement(By.cssSelector("td[" + attribute + "]")).getAttribute(attribute);
    }

    private void clickSort(String key) {
        browser.findElement(By.cssSelector("button[data-sort='" + key + "']")).click();
    }

    /** Waits until the header of column {@code key} says {@code ariaSort} (the list is redrawn on each load). */
    private void waitForSort(String key, String ariaSort) {
        redrawn.until(d -> ariaSort.equals(
            d.findElement(By.xpath("//table[@id='topics']//th[button[@data-sort='" + key + "']]"))
                .getAttribute("aria-sort")));
    }

    private void waitForOrder(String... topics) {
        redrawn.until(d -> d.findElements(By.cssSelector("tr[data-topic]")).stream()
            .map(r -> r.getAttribute("data-topic")).toList().equals(List.of(topics)));
    }


    private void produce(String topic, int records) throws Exception {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(topic, null, "x".repeat(VALUE_BYTES))).get(30, TimeUnit.SECONDS);
            }
        }
    }

    private void commitAnOffset(String topic) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "ui-list-group-" + topic);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.commitSync(Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(0)));
        }
    }
}
