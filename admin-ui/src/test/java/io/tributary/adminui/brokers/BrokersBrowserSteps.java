package io.tributary.adminui.brokers;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.testing.BrowserSteps;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The Brokers pages on the shared one-broker cluster: after 200 KB are written to a new topic, the list
 * shows broker 0 as controller with a non-zero log dir size; its page shows the configs with their
 * sources, a dynamic one set for the broker shows source DYNAMIC_BROKER_CONFIG (with Kafka's default
 * as synonym) and is removed again, then set and removed cluster-wide (source
 * DYNAMIC_DEFAULT_BROKER_CONFIG meanwhile); its log directory with a non-zero size; the topic's
 * partition among those it leads, in sync.
 */
public class BrokersBrowserSteps extends BrowserSteps {

    private static final String CONFIG = "log.retention.bytes";

    public BrokersBrowserSteps(WebDriver browser, WebDriverWait wait, URI ui, String bootstrap, Path screenshots) {
        super(browser, wait, ui, bootstrap, screenshots);
    }

    @Override
    public void run() throws Exception {
        String topic = createTopic("ui-brokers-", 1);
        produce(topic, 200, 1_000);

        // The list, from the navigation.
        browser.get(ui.resolve("/#/").toString());
        wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("a[data-nav='brokers']"))).click();
        WebElement row = wait.until(ExpectedConditions.visibilityOfElementLocated(
            By.cssSelector("#broker-list tr[data-broker-row='0']")));
        assertThat(row.findElement(By.cssSelector(".broker-controller")).getText()).isEqualTo("Controller");
        assertThat(Integer.parseInt(row.findElement(By.cssSelector(".broker-replicas")).getText())).isPositive();
        assertThat(Long.parseLong(row.findElement(By.cssSelector(".broker-size")).getAttribute("data-bytes")))
            .isGreaterThan(200_000);
        screenshot("brokers");

        // The broker's page: configs with sources; set a dynamic one for this broker.
        row.findElement(By.cssSelector("a[href='#/brokers/0']")).click();
        WebElement filter = wait.until(ExpectedConditions.elementToBeClickable(By.id("broker-config-filter")));
        filter.sendKeys(CONFIG);
        wait.until(d -> d.findElements(By.cssSelector("#broker-configs tbody tr")).size() == 1);
        assertThat(source()).isEqualTo("DEFAULT_CONFIG");
        assertThat(browser.findElements(By.cssSelector("#broker-configs tr[data-broker-config='broker.id'] input")))
            .as("a static config is not editable").isEmpty();
        configRow().findElement(By.cssSelector("input[data-config]")).sendKeys("1073741824");
        browser.findElement(By.id("save-broker-configs")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("broker-configs-saved")));
        wait.until(d -> "DYNAMIC_BROKER_CONFIG".equals(source()));
        assertThat(configRow().findElement(By.cssSelector(".value")).getText()).isEqualTo("1073741824");
        configRow().findElement(By.cssSelector("details.synonyms summary")).click();
        assertThat(configRow().findElement(By.cssSelector("details.synonyms ul")).getText())
            .contains("Kafka default");
        screenshot("broker-configs");

        // Log directories and partitions.
        WebElement dir = browser.findElement(By.cssSelector("#log-dirs .log-dir-size"));
        assertThat(Long.parseLong(dir.getAttribute("data-bytes"))).isGreaterThan(200_000);
        WebElement partition = browser.findElement(By.cssSelector(
            "#broker-partitions tr[data-broker-partition='" + topic + "-0']"));
        assertThat(partition.getText()).contains("Leader", "In sync");
        browser.findElement(By.id("urp-only")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("no-broker-partitions")));
        screenshot("broker-log-dirs");

        // Remove it again: back to Kafka's default.
        configRow().findElement(By.cssSelector("input[data-reset]")).click();
        browser.findElement(By.id("save-broker-configs")).click();
        wait.until(d -> "DEFAULT_CONFIG".equals(source()));

        // Cluster-wide: every broker's default, shown as such; then removed.
        new Select(browser.findElement(By.id("broker-config-scope"))).selectByValue("cluster");
        configRow().findElement(By.cssSelector("input[data-config]")).sendKeys("2147483648");
        browser.findElement(By.id("save-broker-configs")).click();
        wait.until(d -> "DYNAMIC_DEFAULT_BROKER_CONFIG".equals(source()));
        assertThat(browser.findElement(By.id("cluster-defaults")).getText()).contains(CONFIG + "=2147483648");
        configRow().findElement(By.cssSelector("input[data-reset]")).click();
        browser.findElement(By.id("save-broker-configs")).click();
        wait.until(d -> "DEFAULT_CONFIG".equals(source()));
    }

    private WebElement configRow() {
        return browser.findElement(By.cssSelector("#broker-configs tr[data-broker-config='" + CONFIG + "']"));
    }

    /** The source of the config's row, read in one script: the table may be replaced between two reads. */
    private String source() {
        return (String) ((org.openqa.selenium.JavascriptExecutor) browser).executeScript(
            "const e = document.querySelector(\"#broker-configs tr[data-broker-config='" + CONFIG
                + "'] .source-cell [data-source]\"); return e ? e.dataset.source : null;");
    }

    private void produce(String topic, int records, int bytes) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            List<Future<?>> sent = new ArrayList<>();
            for (int i = 0; i < records; i++) {
                sent.add(producer.send(new ProducerRecord<>(topic, 0, null, new byte[bytes])));
            }
            for (Future<?> f : sent) {
                f.get(30, TimeUnit.SECONDS);
            }
        }
    }
}
