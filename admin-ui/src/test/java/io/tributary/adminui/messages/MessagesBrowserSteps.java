package io.tributary.adminui.messages;

import io.tributary.adminui.testing.BrowserSteps;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The message browser end to end, run by {@code AdminUiBrowserIT} on its broker, proxy, UI and
 * browser: produce a JSON record with a key and a header from the side panel, find it in the table
 * and expand its row (value pretty-printed), search for part of its value (with "scanned" progress),
 * see a record produced by a Kafka producer appear in the live tail, and one produced from the side
 * panel, which stayed open all along. Screenshots into {@code screenshots}.
 */
public final class MessagesBrowserSteps extends BrowserSteps {


    public MessagesBrowserSteps(WebDriver browser, WebDriverWait wait, URI ui, String bootstrap, Path screenshots) {
        super(browser, wait, ui, bootstrap, screenshots);
    }

    @Override
    public void run() throws Exception {
        String topic = createTopic("ui-messages-", 2);

        // From the topic page (two partitions) to its messages: none yet, the produce form offered.
        browser.get(ui.resolve("/#/topics/" + topic).toString());
        wait.until(ExpectedConditions.elementToBeClickable(By.id("messages-link"))).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("msg-range"), "No messages here"));
        assertThat(text("#topic-name")).isEqualTo(topic);

        // Produce a JSON value with a key and a header from the side panel.
        assertThat(browser.findElement(By.id("produce-panel")).isDisplayed()).isFalse();
        browser.findElement(By.id("produce-open")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("produce-panel")));
        browser.findElement(By.id("produce-key")).sendKeys("order-42");
        browser.findElement(By.id("produce-value")).sendKeys("{\"id\":42,\"item\":\"kayak-paddle\",\"qty\":2}");
        browser.findElement(By.id("produce-headers")).sendKeys("source=admin-ui");
        new Select(browser.findElement(By.id("produce-partition"))).selectByValue("0");
        browser.findElement(By.id("produce-send")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("produce-result"),
            "Produced to partition 0 at offset 0."));

        // The table refreshed behind the panel, which stays open: one row, a compact preview of the value.
        By first = By.cssSelector("#messages tr.msg[data-offset='0']");
        WebElement message = wait.until(ExpectedConditions.visibilityOfElementLocated(first));
        assertThat(browser.findElement(By.id("produce-panel")).isDisplayed()).isTrue();
        assertThat(browser.findElement(By.id("produce-key")).getAttribute("value")).isEqualTo("order-42");
        browser.findElement(By.id("produce-close")).click();
        wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("produce-panel")));
        assertThat(message.findElement(By.cssSelector(".msg-partition")).getText()).isEqualTo("0");
        assertThat(message.findElement(By.cssSelector(".msg-key")).getText()).isEqualTo("order-42");
        assertThat(message.findElement(By.cssSelector(".msg-preview")).getText())
            .isEqualTo("{\"id\":42,\"item\":\"kayak-paddle\",\"qty\":2}");
        assertThat(message.findElement(By.cssSelector(".msg-headers-count")).getText()).isEqualTo("1");
        assertThat(text("#msg-range")).startsWith("Showing 1 message, oldest first by timestamp; 2 partitions hold 1 record.");

        // Expanding the row shows the header and the whole value pretty-printed as JSON.
        WebElement details = browser.findElement(By.cssSelector("#messages tr.msg[data-offset='0'] + tr.msg-detail"));
        assertThat(details.isDisplayed()).isFalse();
        message.findElement(By.cssSelector(".msg-expand")).click();
        wait.until(ExpectedConditions.visibilityOf(details));
        assertThat(message.findElement(By.cssSelector(".msg-expand")).getAttribute("aria-expanded")).isEqualTo("true");
        assertThat(details.findElement(By.cssSelector(".header-name")).getText()).isEqualTo("source");
        assertThat(details.findElement(By.cssSelector(".header-value")).getText()).isEqualTo("admin-ui");
        WebElement value = details.findElement(By.cssSelector(".msg-value"));
        assertThat(value.getAttribute("data-kind")).isEqualTo("json");
        assertThat(value.getText()).isEqualTo("{\n  \"id\" : 42,\n  \"item\" : \"kayak-paddle\",\n  \"qty\" : 2\n}");
        screenshot("messages", message);

        // One partition picked: its offsets are shown.
        new Select(browser.findElement(By.id("msg-partition"))).selectByValue("0");
        browser.findElement(By.id("msg-load")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("msg-range"),
            "Showing offsets 0–0 (1 message); partition 0 holds offsets 0–1."));
        assertThat(text("#messages tr.msg[data-offset='0'] .msg-key")).isEqualTo("order-42");

        // Search a substring of the value: the progress says what was scanned, the match is listed.
        browser.findElement(By.id("search-query")).sendKeys("kayak");
        browser.findElement(By.id("search-start")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("search-progress"), "Scanned 1 of 1 records"));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("search-progress"), "1 match"));
        WebElement match = wait.until(ExpectedConditions.visibilityOfElementLocated(
            By.cssSelector("#search-results tr.msg[data-offset='0']")));
        assertThat(match.findElement(By.cssSelector(".msg-preview")).getText()).contains("\"kayak-paddle\"");
        wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("search-cancel")));
        screenshot("messages-search", match);

        // Live tail: once following, a record from a Kafka producer appears at the top.
        browser.findElement(By.id("tail-start")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("tail-status"), "Following new messages"));
        assertThat(browser.findElement(By.id("tail-stop")).isEnabled()).isTrue();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
            ProducerRecord<String, String> tailed = new ProducerRecord<>(topic, 0, "tail-key",
                "plain text from the test");
            tailed.headers().add("origin", "it".getBytes(StandardCharsets.UTF_8));
            producer.send(tailed).get(30, TimeUnit.SECONDS);
        }
        WebElement live = wait.until(ExpectedConditions.visibilityOfElementLocated(
            By.cssSelector("#tail tr.msg[data-offset='1']")));
        assertThat(live.findElement(By.cssSelector(".msg-key")).getText()).isEqualTo("tail-key");
        WebElement liveValue = live.findElement(By.cssSelector(".msg-preview"));
        assertThat(liveValue.getAttribute("data-kind")).isEqualTo("text");
        assertThat(liveValue.getText()).isEqualTo("plain text from the test");
        live.click();
        WebElement liveDetails = browser.findElement(By.cssSelector("#tail tr.msg[data-offset='1'] + tr.msg-detail"));
        wait.until(ExpectedConditions.visibilityOf(liveDetails));
        assertThat(liveDetails.findElement(By.cssSelector(".header-value")).getText()).isEqualTo("it");
        screenshot("messages-tail", live);

        // With the tail on, a record produced from the side panel appears on top of the tail; the panel stays open.
        browser.findElement(By.id("produce-open")).click();
        WebElement key = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("produce-key")));
        key.clear();
        key.sendKeys("from-panel");
        WebElement produceValue = browser.findElement(By.id("produce-value"));
        produceValue.clear();
        produceValue.sendKeys("produced while tailing");
        browser.findElement(By.id("produce-headers")).clear();
        browser.findElement(By.id("produce-send")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("produce-result"),
            "Produced to partition 0 at offset 2."));
        WebElement fromPanel = wait.until(ExpectedConditions.visibilityOfElementLocated(
            By.cssSelector("#tail tbody.msg-group:first-of-type tr.msg[data-offset='2']")));
        assertThat(fromPanel.findElement(By.cssSelector(".msg-key")).getText()).isEqualTo("from-panel");
        assertThat(fromPanel.findElement(By.cssSelector(".msg-preview")).getText()).isEqualTo("produced while tailing");
        assertThat(browser.findElement(By.id("produce-panel")).isDisplayed()).isTrue();
        screenshot("messages-produce-panel");
        browser.findElement(By.id("produce-close")).click();
        wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("produce-panel")));

        // Dark theme (prefers-color-scheme): screenshot only.
        org.openqa.selenium.chromium.ChromiumDriver chromium = (org.openqa.selenium.chromium.ChromiumDriver) browser;
        chromium.executeCdpCommand("Emulation.setEmulatedMedia",
            Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", "dark"))));
        screenshot("messages-dark", live);
        chromium.executeCdpCommand("Emulation.setEmulatedMedia", Map.of("features", List.of()));

        // Phone width: the page holds without a page-wide horizontal scroll.
        browser.manage().window().setSize(new Dimension(390, 844));
        wait.until(d -> ((Number) ((org.openqa.selenium.JavascriptExecutor) d).executeScript(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth")).intValue() <= 0);
        screenshot("messages-phone");
        browser.manage().window().setSize(new Dimension(1280, 900));

        browser.findElement(By.id("tail-stop")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("tail-status"), "Stopped."));
        assertThat(browser.findElement(By.id("tail-start")).isEnabled()).isTrue();
    }


    private void screenshot(String name, WebElement shown) throws IOException {
        ((org.openqa.selenium.JavascriptExecutor) browser).executeScript(
            "arguments[0].scrollIntoView({block: 'center'})", shown);
        screenshot(name);
    }
}
