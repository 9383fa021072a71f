package io.tributary.adminui.messages;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.testing.BrowserSteps;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
 * The message browser of a UI started with {@code admin-ui.produce-enabled=false}, run by
 * {@code AdminUiBrowserIT} ({@code ui} is that UI): records can be read but the produce form is
 * not on the page, and a produce request sent anyway is answered 403 and writes nothing.
 */
public final class ProduceDisabledBrowserSteps extends BrowserSteps {

    public ProduceDisabledBrowserSteps(WebDriver browser, WebDriverWait wait, URI ui, String bootstrap,
            Path screenshots) {
        super(browser, wait, ui, bootstrap, screenshots);
    }

    @Override
    public void run() throws Exception {
        String topic = createTopic("ui-read-only-", 1);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
            producer.send(new ProducerRecord<>(topic, 0, "k", "written by a Kafka producer")).get(30, TimeUnit.SECONDS);
        }

        // Reading works; there is no produce form, button or heading.
        browser.get(ui.resolve("/#/topics/" + topic + "/messages").toString());
        wait.until(ExpectedConditions.textToBe(By.id("msg-range"),
            "Showing 1 message, oldest first by timestamp; 1 partition holds 1 record."));
        assertThat(text("#messages tr.msg[data-offset='0'] .msg-preview")).isEqualTo("written by a Kafka producer");
        assertThat(browser.findElements(By.id("produce-form"))).isEmpty();
        assertThat(browser.findElements(By.id("produce-send"))).isEmpty();
        assertThat(browser.findElements(By.id("produce-title"))).isEmpty();
        assertThat(browser.findElements(By.id("produce-open"))).as("no button opens a produce panel").isEmpty();
        assertThat(browser.findElement(By.id("search-start")).isEnabled()).as("search still offered").isTrue();
        assertThat(browser.findElement(By.id("tail-start")).isEnabled()).as("live tail still offered").isTrue();
        screenshot("messages-produce-off");

        // The API refuses a produce request all the same, and the topic still holds one record.
        HttpResponse<String> refused = HttpClient.newHttpClient().send(
            HttpRequest.newBuilder(ui.resolve("/api/topics/" + topic + "/messages")).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"value\":\"should not be written\"}")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).contains("admin-ui.produce-enabled=false");
        browser.findElement(By.id("msg-load")).click();
        wait.until(ExpectedConditions.textToBe(By.id("msg-range"),
            "Showing 1 message, oldest first by timestamp; 1 partition holds 1 record."));
    }
}
