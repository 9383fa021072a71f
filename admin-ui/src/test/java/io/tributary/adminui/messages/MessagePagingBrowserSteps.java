package io.tributary.adminui.messages;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.testing.BrowserSteps;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Paging in the message browser, run by {@code AdminUiBrowserIT}: a one-partition topic of
 * {@value #RECORDS} records, one second apart in timestamp, is paged 50 at a time with Newer and
 * Older, first over "All" partitions (cursors), then over partition 0 (offsets in the range line);
 * "Start at timestamp" shows the records from that timestamp on.
 */
public final class MessagePagingBrowserSteps extends BrowserSteps {

    /** Records in the topic: two full pages of 50 and one of 20. */
    private static final int RECORDS = 120;

    public MessagePagingBrowserSteps(WebDriver browser, WebDriverWait wait, URI ui, String bootstrap,
            Path screenshots) {
        super(browser, wait, ui, bootstrap, screenshots);
    }

    @Override
    public void run() throws Exception {
        String topic = createTopic("ui-paging-", 1);
        // Whole seconds, ten minutes ago: record i has timestamp base + i s (the picker has second precision).
        long base = (System.currentTimeMillis() / 1000 - 600) * 1000;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (int i = 0; i < RECORDS; i++) {
                sent.add(producer.send(new ProducerRecord<>(topic, 0, base + i * 1000L, "k" + i, value(i))));
            }
            for (Future<RecordMetadata> done : sent) {
                done.get(30, TimeUnit.SECONDS);
            }
        }

        // The page opens on the newest 50 of all partitions: offsets 70–119.
        browser.get(ui.resolve("/#/topics/" + topic + "/messages").toString());
        wait.until(ExpectedConditions.textToBe(By.id("msg-range"),
            "Showing 50 messages, oldest first by timestamp; 1 partition holds " + RECORDS + " records."));
        assertThat(shownOffsets()).containsExactly(70L, 119L);
        assertThat(enabled("msg-next")).as("Newer on the newest page").isFalse();

        // Older and Newer across all partitions (cursors): 20–69, then back to 70–119.
        browser.findElement(By.id("msg-prev")).click();
        wait.until(d -> shownOffsets().equals(List.of(20L, 69L)));
        assertThat(enabled("msg-next")).isTrue();
        browser.findElement(By.id("msg-next")).click();
        wait.until(d -> shownOffsets().equals(List.of(70L, 119L)));

        // Partition 0 from the oldest: the range line gives the offsets of each page.
        new Select(browser.findElement(By.id("msg-partition"))).selectByValue("0");
        new Select(browser.findElement(By.id("msg-from"))).selectByValue("oldest");
        browser.findElement(By.id("msg-load")).click();
        String holds = "; partition 0 holds offsets 0–" + RECORDS + ".";
        wait.until(ExpectedConditions.textToBe(By.id("msg-range"), "Showing offsets 0–49 (50 messages)" + holds));
        assertThat(shownOffsets()).containsExactly(0L, 49L);
        assertThat(text("#messages tr.msg[data-offset='0'] .msg-preview")).isEqualTo(value(0));
        assertThat(enabled("msg-prev")).as("Older on the oldest page").isFalse();

        browser.findElement(By.id("msg-next")).click();
        wait.until(ExpectedConditions.textToBe(By.id("msg-range"), "Showing offsets 50–99 (50 messages)" + holds));
        assertThat(text("#messages tr.msg[data-offset='50'] .msg-preview")).isEqualTo(value(50));
        browser.findElement(By.id("msg-next")).click();
        wait.until(ExpectedConditions.textToBe(By.id("msg-range"), "Showing offsets 100–119 (20 messages)" + holds));
        assertThat(enabled("msg-next")).as("Newer on the last page").isFalse();
        screenshot("messages-paging");
        browser.findElement(By.id("msg-prev")).click();
        wait.until(ExpectedConditions.textToBe(By.id("msg-range"), "Showing offsets 50–99 (50 messages)" + holds));
        browser.findElement(By.id("msg-prev")).click();
        wait.until(ExpectedConditions.textToBe(By.id("msg-range"), "Showing offsets 0–49 (50 messages)" + holds));

        // Start at a timestamp: record 75's (local time in the picker) shows 75 onwards.
        long at = base + 75_000L;
        new Select(browser.findElement(By.id("msg-from"))).selectByValue("timestamp");
        WebElement picker = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("msg-timestamp")));
        ((JavascriptExecutor) browser).executeScript("const d = new Date(arguments[1]);"
            + "arguments[0].value = new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 19);",
            picker, at);
        browser.findElement(By.id("msg-load")).click();
        wait.until(ExpectedConditions.textToBe(By.id("msg-range"), "Showing offsets 75–119 (45 messages)" + holds));
        WebElement first = browser.findElement(By.cssSelector("#messages tr.msg[data-offset='75']"));
        assertThat(first.findElement(By.tagName("time")).getAttribute("datetime"))
            .isEqualTo(Instant.ofEpochMilli(at).toString().replace("Z", ".000Z"));
        assertThat(first.findElement(By.cssSelector(".msg-preview")).getText()).isEqualTo(value(75));
        assertThat(enabled("msg-prev")).as("Older before the timestamp's record").isTrue();
        screenshot("messages-from-timestamp");
    }

    private static String value(int i) {
        return String.format("paged-record-%03d", i);
    }

    /** The offsets of the first and last record on the page, read in one script (the list may be replaced). */
    @SuppressWarnings("unchecked")
    private List<Long> shownOffsets() {
        List<Object> offsets = (List<Object>) ((JavascriptExecutor) browser).executeScript(
            "const items = document.querySelectorAll('#messages tr.msg');"
            + "return items.length ? [Number(items[0].dataset.offset), Number(items[items.length - 1].dataset.offset)]"
            + " : [];");
        return offsets.stream().map(o -> ((Number) o).longValue()).toList();
    }

    private boolean enabled(String id) {
        return browser.findElement(By.id(id)).isEnabled();
    }
}
