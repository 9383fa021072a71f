package io.tributary.adminui.topics;

import io.tributary.adminui.testing.BrowserSteps;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Editing a topic end to end, run by {@code AdminUiBrowserIT} on its broker, proxy, UI and browser:
 * change {@code retention.ms} and see it after a reload, an invalid value refused with Kafka's
 * message, a reset back to the default, partitions added from 1 to 3 through the confirmation
 * dialog, and a non-zero size on disk once records were produced. Screenshot {@code topic-edit.png}
 * (and {@code topic-edit-phone.png}, {@code topic-edit-dark.png}) into {@code screenshots}.
 */
public final class TopicEditBrowserSteps extends BrowserSteps {

    private static final String RETENTION = "retention.ms";


    public TopicEditBrowserSteps(WebDriver browser, WebDriverWait wait, URI ui, String bootstrap, Path screenshots) {
        super(browser, wait, ui, bootstrap, screenshots);
    }

    @Override
    public void run() throws Exception {
        browser.manage().window().setSize(new Dimension(1280, 900));
        String topic = createTopic("ui-edit-", 1);

        // The topic page: one partition, nothing written yet, retention.ms at its default.
        browser.get(ui.resolve("/#/topics/" + topic).toString());
        wait.until(ExpectedConditions.textToBe(By.id("topic-name"), topic));
        assertThat(text("#partition-count")).isEqualTo("1");
        String defaultRetention = configValue(RETENTION);
        assertThat(configStatus(RETENTION)).contains("default").doesNotContain("overridden");
        assertThat(browser.findElement(By.id("save-configs")).isEnabled()).as("nothing to save yet").isFalse();

        // Set it: saved, and still there after a reload of the page.
        String hour = "3600000";
        configInput(RETENTION).sendKeys(hour);
        wait.until(ExpectedConditions.textToBe(By.id("config-pending"), "1 unsaved change"));
        browser.findElement(By.id("save-configs")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("configs-saved"), RETENTION + " set"));
        browser.navigate().refresh();
        wait.until(ExpectedConditions.textToBe(By.id("topic-name"), topic));
        assertThat(configValue(RETENTION)).isEqualTo(hour);
        assertThat(configStatus(RETENTION)).contains("overridden");
        assertThat(configSource(RETENTION)).isEqualTo("This topic");

        // An invalid value: Kafka's message as an alert, the value unchanged, the edit kept to correct.
        configInput(RETENTION).sendKeys("soon");
        browser.findElement(By.id("save-configs")).click();
        WebElement alert = wait.until(ExpectedConditions.visibilityOfElementLocated(
            By.cssSelector("#config-message [role=alert]")));
        assertThat(alert.getText()).contains(RETENTION).contains("soon");
        assertThat(configValue(RETENTION)).isEqualTo(hour);
        assertThat(configInput(RETENTION).getAttribute("value")).isEqualTo("soon");
        screenshot("topic-edit-error");

        // Discard the bad edit, then reset to the default.
        browser.findElement(By.id("discard-configs")).click();
        assertThat(configInput(RETENTION).getAttribute("value")).isEmpty();
        WebElement reset = row(RETENTION).findElement(By.cssSelector("input[type=checkbox]"));
        reset.click();
        assertThat(configInput(RETENTION).isEnabled()).as("a reset config takes no value").isFalse();
        browser.findElement(By.id("save-configs")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("configs-saved"),
            RETENTION + " reset to its default"));
        assertThat(configValue(RETENTION)).isEqualTo(defaultRetention);
        assertThat(configStatus(RETENTION)).doesNotContain("overridden");
        assertThat(row(RETENTION).findElements(By.cssSelector("input[type=checkbox]")))
            .as("nothing left to reset").isEmpty();

        // Add partitions: from 1 to 3, through the confirmation dialog (cancel first: nothing changes).
        WebElement count = browser.findElement(By.id("new-partition-count"));
        assertThat(count.getAttribute("min")).isEqualTo("2");
        count.clear();
        count.sendKeys("3");
        browser.findElement(By.id("add-partitions")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm")));
        assertThat(text("#confirm-text")).contains(topic).contains("from 1 to 3 partitions");
        browser.findElement(By.id("confirm-cancel")).click();
        wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("confirm")));
        assertThat(browser.findElements(By.cssSelector("#partitions tbody tr"))).hasSize(1);
        browser.findElement(By.id("add-partitions")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm-ok"))).click();
        wait.until(ExpectedConditions.textToBe(By.id("partitions-done"), "Topic " + topic + " now has 3 partitions."));
        wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#partitions tbody tr"), 3));
        assertThat(text("#partition-count")).isEqualTo("3");
        assertThat(browser.findElement(By.id("new-partition-count")).getAttribute("min")).isEqualTo("4");

        // Produce to every partition: after a refresh the sizes are non-zero, in human units with the
        // exact bytes in the title and accessible name, and the total is their sum.
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < 30; i++) {
                producer.send(new ProducerRecord<>(topic, i % 3, "k" + i, "value-" + i + "-" + "x".repeat(200)))
                    .get(30, TimeUnit.SECONDS);
            }
        }
        // Refresh until the sizes the proxy reads from the brokers' log directories are there (polls, no sleep).
        new WebDriverWait(browser, Duration.ofSeconds(30)).ignoring(StaleElementReferenceException.class).until(d -> {
            WebElement refresh = d.findElement(By.id("topic-refresh"));
            if (!refresh.getText().equals("Refresh")) {
                return false;
            }
            List<WebElement> sizes = d.findElements(By.cssSelector("#partitions tbody td [data-bytes]"));
            if (bytes(d.findElement(By.id("topic-size"))) > 0 && sizes.size() == 3
                    && sizes.stream().allMatch(e -> bytes(e) > 0)) {
                return true;
            }
            refresh.click();
            return false;
        });
        WebElement total = browser.findElement(By.id("topic-size"));
        long totalBytes = bytes(total);
        long sum = browser.findElements(By.cssSelector("#partitions tbody td [data-bytes]")).stream()
            .mapToLong(TopicEditBrowserSteps::bytes).sum();
        assertThat(sum).isEqualTo(totalBytes);
        assertThat(total.getAttribute("title")).isEqualTo(String.format(java.util.Locale.ENGLISH, "%,d bytes",
            totalBytes));
        assertThat(total.getAttribute("aria-label")).contains(String.format(java.util.Locale.ENGLISH, "%,d bytes",
            totalBytes));
        assertThat(total.getText()).matches("[0-9.]+ (B|KiB|MiB)");
        screenshot("topic-edit");

        // Phone width: no page-wide horizontal scroll; dark theme (screenshots).
        browser.manage().window().setSize(new Dimension(390, 844));
        wait.until(d -> (Boolean) ((JavascriptExecutor) d).executeScript(
            "return document.documentElement.scrollWidth <= document.documentElement.clientWidth"));
        screenshot("topic-edit-phone");
        browser.manage().window().setSize(new Dimension(1280, 900));
        ((org.openqa.selenium.chrome.ChromeDriver) browser).executeCdpCommand("Emulation.setEmulatedMedia",
            Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", "dark"))));
        screenshot("topic-edit-dark");
        ((org.openqa.selenium.chrome.ChromeDriver) browser).executeCdpCommand("Emulation.setEmulatedMedia",
            Map.of("features", List.of()));
    }

    private static long bytes(WebElement size) {
        String value = size.getAttribute("data-bytes");
        return value == null ? 0 : Long.parseLong(value);
    }

    private WebElement row(String config) {
        return browser.findElement(By.cssSelector("#configs tr[data-config-row='" + config + "']"));
    }

    private WebElement configInput(String config) {
        return row(config).findElement(By.cssSelector("input[aria-label='New value of " + config + "']"));
    }

    private String configValue(String config) {
        return row(config).findElements(By.tagName("td")).get(0).getText().trim();
    }

    private String configSource(String config) {
        return row(config).findElements(By.tagName("td")).get(1).getText().trim();
    }

    private String configStatus(String config) {
        return row(config).findElements(By.tagName("td")).get(2).getText().trim();
    }
}
