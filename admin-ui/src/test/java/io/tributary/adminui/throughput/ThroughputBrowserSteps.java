package io.tributary.adminui.throughput;

import io.tributary.adminui.testing.BrowserSteps;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * AdminUiBrowserIT's throughput steps: while a producer sends records (in the background, bounded), the
 * overview's chart summary shows a non-zero messages-in rate, both charts are drawn (pixels on their
 * canvases), no broker is reported missing, and the page fits a phone's width.
 */
public final class ThroughputBrowserSteps extends BrowserSteps {

    private static final Pattern MESSAGES = Pattern.compile("([\\d.,]+) messages?/s in");


    public ThroughputBrowserSteps(WebDriver browser, WebDriverWait wait, URI ui, String bootstrap, Path screenshots) {
        super(browser, wait, ui, bootstrap, screenshots);
    }

    @Override
    public void run() throws Exception {
        browser.manage().window().setSize(new Dimension(1280, 900));
        String topic = createTopic("ui-throughput-", 1);
        browser.get(ui.resolve("/#/").toString());
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("throughput-summary")));

        AtomicBoolean producing = new AtomicBoolean(true);
        Thread producer = new Thread(() -> produceUntilStopped(topic, producing), "ui-throughput-producer");
        producer.start();
        try {
            // Rates need two scrapes with records between them; the producer keeps sending until then.
            wait.until(d -> messagesRate(d.findElement(By.id("throughput-summary")).getText()) > 0);
            wait.until(d -> drawn("#throughput-messages canvas") && drawn("#throughput-bytes canvas"));
        } finally {
            producing.set(false);
            producer.join(30_000);
        }
        assertThat(browser.findElement(By.id("throughput-summary")).getText()).contains("B/s in").contains("out");
        assertThat(browser.findElement(By.id("throughput-missing")).isDisplayed()).as("no broker missing").isFalse();
        assertThat(browser.findElement(By.id("throughput-live")).getAttribute("aria-live")).isEqualTo("polite");
        screenshot("overview-throughput");

        // Dark theme: the charts are drawn again in its colours.
        ((ChromeDriver) browser).executeCdpCommand("Emulation.setEmulatedMedia",
            Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", "dark"))));
        try {
            wait.until(ExpectedConditions.attributeToBe(By.cssSelector("section.throughput"), "data-theme", "dark"));
            wait.until(d -> drawn("#throughput-messages canvas"));
            screenshot("overview-throughput-dark");
        } finally {
            ((ChromeDriver) browser).executeCdpCommand("Emulation.setEmulatedMedia", Map.of("features", List.of()));
        }

        browser.manage().window().setSize(new Dimension(390, 844));
        wait.until(d -> (Boolean) ((JavascriptExecutor) d).executeScript(
            "return document.documentElement.scrollWidth <= document.documentElement.clientWidth"));
        // Redrawn to the narrower width.
        wait.until(d -> (Boolean) ((JavascriptExecutor) d).executeScript(
            "const f = document.getElementById('throughput-messages');"
                + "const c = f.querySelector('canvas'); return !!c && c.clientWidth <= f.clientWidth;"));
        wait.until(d -> drawn("#throughput-messages canvas"));
        ((JavascriptExecutor) browser).executeScript("document.getElementById('throughput-title').scrollIntoView()");
        screenshot("overview-throughput-phone");
        browser.manage().window().setSize(new Dimension(1280, 900));
    }

    /** The messages-in rate in the summary text, 0 while collecting. */
    static double messagesRate(String summary) {
        Matcher m = MESSAGES.matcher(summary);
        return m.find() ? Double.parseDouble(m.group(1).replace(",", "")) : 0;
    }

    /** Whether the canvas exists, has a size and has some non-transparent pixel. */
    private boolean drawn(String css) {
        return Boolean.TRUE.equals(((JavascriptExecutor) browser).executeScript("""
            const c = document.querySelector(arguments[0]);
            if (!c || c.width === 0 || c.height === 0) return false;
            const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            for (let i = 3; i < px.length; i += 4) if (px[i] !== 0) return true;
            return false;""", css));
    }

    /** One record every 50 ms until stopped, for at most two minutes. */
    private void produceUntilStopped(String topic, AtomicBoolean producing) {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; producing.get() && System.nanoTime() < deadline; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + i, "value-" + i)).get(10, TimeUnit.SECONDS);
                Thread.sleep(50); // paces the load (not a wait for a condition): the chart shows a steady rate
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
