package io.tributary.adminui.messages;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.testing.BrowserSteps;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Cancelling a message search, run by {@code AdminUiBrowserIT}: on a topic of {@value #RECORDS}
 * records a search for text no record holds scans them all, so it is still running when Cancel is
 * pressed; the page then shows the search as cancelled, offers Search again, and a new search (one that
 * stops at the match limit) runs to its end.
 *
 * <p>The Cancel button shows from the search's start until the first progress poll that finds it
 * finished (at least half a second later); the step waits for it with a short polling interval so
 * that it presses it in that window however long the scan takes.
 */
public final class MessageSearchCancelBrowserSteps extends BrowserSteps {

    /** Records in the topic: enough that a full scan is not over by the first progress poll. */
    private static final int RECORDS = 200_000;

    public MessageSearchCancelBrowserSteps(WebDriver browser, WebDriverWait wait, URI ui, String bootstrap,
            Path screenshots) {
        super(browser, wait, ui, bootstrap, screenshots);
    }

    @Override
    public void run() throws Exception {
        String topic = createTopic("ui-search-cancel-", 2);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024,
                ProducerConfig.LINGER_MS_CONFIG, 20,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
            for (int i = 0; i < RECORDS - 1; i++) {
                producer.send(new ProducerRecord<>(topic, i % 2, null, "scan-record-" + i));
            }
            producer.send(new ProducerRecord<>(topic, 1, null, "scan-record-last")).get(60, TimeUnit.SECONDS);
        }

        browser.get(ui.resolve("/#/topics/" + topic + "/messages").toString());
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("msg-range"), "2 partitions hold"));

        // A search for text in no record, cancelled while it scans.
        browser.findElement(By.id("search-query")).sendKeys("text-in-no-record");
        browser.findElement(By.id("search-start")).click();
        new WebDriverWait(browser, Duration.ofSeconds(30), Duration.ofMillis(20))
            .until(ExpectedConditions.elementToBeClickable(By.id("search-cancel"))).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("search-progress"), "(cancelled)."));
        assertThat(text("#search-progress")).as("the counts last shown, as cancelled")
            .matches("Scanned [0-9,]+ of [0-9,]+ records, 0 matches \\(cancelled\\)\\.");
        assertThat(text("#status")).as("announced").isEqualTo("Search cancelled.");
        assertThat(browser.findElement(By.id("search-cancel")).isDisplayed()).isFalse();
        assertThat(browser.findElement(By.id("search-start")).isEnabled()).as("Search offered again").isTrue();
        assertThat(browser.findElements(By.cssSelector("#search-results tr.msg"))).isEmpty();
        screenshot("messages-search-cancelled");

        // The page stays usable: a search every record matches stops at the match limit.
        browser.findElement(By.id("search-query")).clear();
        browser.findElement(By.id("search-query")).sendKeys("scan-record-");
        browser.findElement(By.id("search-start")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("search-progress"),
            "100 matches (match limit reached)."));
        assertThat(browser.findElements(By.cssSelector("#search-results tr.msg"))).hasSize(100);
        wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("search-cancel")));
        assertThat(text("#search-progress")).doesNotContain("cancelled");
    }
}
