package io.tributary.adminui.messages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.adminui.testing.BrowserSteps;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
import org.openqa.selenium.chromium.ChromiumDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Messages page's filter bar and export, run by {@code AdminUiBrowserIT}: four known records in
 * two partitions; a filter expression on the value and a header shows only the two matching rows and
 * "Scanned 4 records, 2 matched"; the expression with the partition picked; a row expanded; the rows
 * shown exported as JSON lines and as CSV (Chromium downloads into a temporary directory, the files
 * are read back); key text and value text filters; a malformed expression's message under the field.
 */
public final class MessageFilterBrowserSteps extends BrowserSteps {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    public MessageFilterBrowserSteps(WebDriver browser, WebDriverWait wait, URI ui, String bootstrap,
            Path screenshots) {
        super(browser, wait, ui, bootstrap, screenshots);
    }

    @Override
    public void run() throws Exception {
        String topic = createTopic("ui-filter-", 2);
        List<RecordMetadata> sent = new ArrayList<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
            // One after another, so their timestamps (and the page's order) are theirs.
            sent.add(send(producer, topic, 0, "order-1", "{\"id\":1,\"item\":\"kayak\",\"qty\":3}", "web"));
            sent.add(send(producer, topic, 0, "order-2", "{\"id\":2,\"item\":\"paddle, wooden\",\"qty\":1}", "shop"));
            sent.add(send(producer, topic, 1, "order-3", "{\"id\":3,\"item\":\"tent \\\"XL\\\"\",\"qty\":5}", "web"));
            sent.add(send(producer, topic, 1, "note", "plain text, \"quoted\"\nand a second line", null));
        }

        browser.get(ui.resolve("/#/topics/" + topic + "/messages").toString());
        wait.until(ExpectedConditions.textToBe(By.id("msg-range"),
            "Showing 4 messages, oldest first by timestamp; 2 partitions hold 4 records."));
        // Every control of the page, the produce panel's too, has an accessible name.
        browser.findElement(By.id("produce-open")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("produce-panel")));
        assertThat(unnamedControls()).isEmpty();
        browser.findElement(By.id("produce-close")).click();
        wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("produce-panel")));

        // A filter expression on the value and a header, from the oldest: only the matching rows.
        new Select(browser.findElement(By.id("msg-from"))).selectByValue("oldest");
        type("msg-filter", "@.value.qty > 2 && @.headers.source == 'web'");
        browser.findElement(By.id("msg-load")).click();
        wait.until(ExpectedConditions.textToBe(By.id("msg-range"),
            "Scanned 4 records, 2 matched (nothing more to read that way)."));
        assertThat(shownKeys()).containsExactly("order-1", "order-3");
        screenshot("messages-filtered");

        // Expand a row: its whole value.
        WebElement tent = browser.findElement(By.cssSelector("#messages tr.msg[data-partition='1'][data-offset='0']"));
        tent.findElement(By.cssSelector(".msg-expand")).click();
        WebElement details = browser.findElement(
            By.cssSelector("#messages tr.msg[data-partition='1'][data-offset='0'] + tr.msg-detail"));
        wait.until(ExpectedConditions.visibilityOf(details));
        assertThat(details.findElement(By.cssSelector(".msg-value")).getText())
            .isEqualTo("{\n  \"id\" : 3,\n  \"item\" : \"tent \\\"XL\\\"\",\n  \"qty\" : 5\n}");

        // Export what is shown: JSON lines, one object a record.
        List<String> lines = Files.readAllLines(download("export-jsonl", topic + "-messages.jsonl"));
        assertThat(lines).hasSize(2);
        JsonNode first = JSON.readTree(lines.get(0));
        assertThat(first.get("topic").asString()).isEqualTo(topic);
        assertThat(first.get("partition").asInt()).isZero();
        assertThat(first.get("offset").asLong()).isZero();
        assertThat(first.get("timestamp").asLong()).isEqualTo(sent.get(0).timestamp());
        assertThat(first.get("key").asString()).isEqualTo("order-1");
        assertThat(first.get("value")).isEqualTo(JSON.readTree("{\"id\":1,\"item\":\"kayak\",\"qty\":3}"));
        assertThat(first.get("headers")).isEqualTo(JSON.readTree("[{\"name\":\"source\",\"value\":\"web\"}]"));
        JsonNode second = JSON.readTree(lines.get(1));
        assertThat(second.get("partition").asInt()).isEqualTo(1);
        assertThat(second.get("value").get("item").asString()).isEqualTo("tent \"XL\"");

        // ... and CSV: a header row, the quotes of the value's JSON doubled.
        String csv = Files.readString(download("export-csv", topic + "-messages.csv"), StandardCharsets.UTF_8);
        assertThat(csv).isEqualTo("topic,partition,offset,timestamp,key,value,headers\r\n"
            + topic + ",0,0," + sent.get(0).timestamp() + ",order-1,\"{\"\"id\"\":1,\"\"item\"\":\"\"kayak\"\",\"\"qty\"\":3}\","
            + "\"[{\"\"name\"\":\"\"source\"\",\"\"value\"\":\"\"web\"\"}]\"\r\n"
            + topic + ",1,0," + sent.get(2).timestamp() + ",order-3,"
            + "\"{\"\"id\"\":3,\"\"item\"\":\"\"tent \\\"\"XL\\\"\"\"\",\"\"qty\"\":5}\","
            + "\"[{\"\"name\"\":\"\"source\"\",\"\"value\"\":\"\"web\"\"}]\"\r\n");

        // The expression with one partition picked: only that partition is scanned.
        new Select(browser.findElement(By.id("msg-partition"))).selectByValue("0");
        browser.findElement(By.id("msg-load")).click();
        wait.until(ExpectedConditions.textToBe(By.id("msg-range"),
            "Scanned 2 records, 1 matched (nothing more to read that way)."));
        assertThat(shownKeys()).containsExactly("order-1");

        // Key and value text instead of an expression; a value with a comma, quotes and a newline in CSV.
        new Select(browser.findElement(By.id("msg-partition"))).selectByValue("all");
        type("msg-filter", "");
        type("msg-key-filter", "NOTE");
        type("msg-value-filter", "second line");
        browser.findElement(By.id("msg-load")).click();
        wait.until(ExpectedConditions.textToBe(By.id("msg-range"),
            "Scanned 4 records, 1 matched (nothing more to read that way)."));
        assertThat(shownKeys()).containsExactly("note");
        assertThat(Files.readString(download("export-csv", topic + "-messages.csv"), StandardCharsets.UTF_8))
            .isEqualTo("topic,partition,offset,timestamp,key,value,headers\r\n"
                + topic + ",1,1," + sent.get(3).timestamp() + ",note,\"plain text, \"\"quoted\"\"\nand a second line\",[]\r\n");

        // A malformed expression: the parser's message under the field, no scan.
        type("msg-key-filter", "");
        type("msg-value-filter", "");
        type("msg-filter", "@.value.qty >");
        browser.findElement(By.id("msg-load")).click();
        WebElement error = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#msg-filter-error .error")));
        assertThat(error.getText()).startsWith("The filter expression does not parse: ");
        assertThat(browser.findElement(By.id("msg-filter")).getAttribute("aria-invalid")).isEqualTo("true");
        screenshot("messages-filter-error");
        type("msg-filter", "@.key == 'order-2'");
        browser.findElement(By.id("msg-load")).click();
        wait.until(d -> shownKeys().equals(List.of("order-2")));
        assertThat(browser.findElement(By.id("msg-range")).getText())
            .isEqualTo("Scanned 4 records, 1 matched (nothing more to read that way).");
        assertThat(browser.findElements(By.cssSelector("#msg-filter-error .error"))).isEmpty();
    }

    private static RecordMetadata send(KafkaProducer<String, String> producer, String topic, int partition, String key,
            String value, String source) throws Exception {
        ProducerRecord<String, String> record = new ProducerRecord<>(topic, partition, key, value);
        if (source != null) {
            record.headers().add("source", source.getBytes(StandardCharsets.UTF_8));
        }
        return producer.send(record).get(30, TimeUnit.SECONDS);
    }

    /** Clicks the export button {@code id} with Chromium saving into a new directory; the file saved there. */
    private Path download(String id, String name) throws Exception {
        Path dir = Files.createTempDirectory("admin-ui-export");
        ((ChromiumDriver) browser).executeCdpCommand("Browser.setDownloadBehavior",
            Map.of("behavior", "allow", "downloadPath", dir.toAbsolutePath().toString()));
        wait.until(ExpectedConditions.elementToBeClickable(By.id(id))).click();
        Path file = dir.resolve(name);
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(file) && Files.size(file) > 0);
        return file;
    }

    private void type(String id, String text) {
        WebElement input = browser.findElement(By.id(id));
        input.clear();
        if (!text.isEmpty()) {
            input.sendKeys(text);
        }
    }

    /** The page's inputs, selects, textareas and buttons without a label, aria-label or text. */
    @SuppressWarnings("unchecked")
    private List<String> unnamedControls() {
        return (List<String>) ((JavascriptExecutor) browser).executeScript(
            "return Array.from(document.querySelectorAll('main input, main select, main textarea, main button'))"
                + ".filter(e => e.type !== 'hidden' && !((e.getAttribute('aria-label') || '').trim()"
                + " || (e.labels && e.labels.length && e.labels[0].textContent.trim())"
                + " || (e.tagName === 'BUTTON' && e.textContent.trim())))"
                + ".map(e => e.outerHTML.slice(0, 160));");
    }

    /** The keys of the rows shown, read in one script (the table may be replaced). */
    @SuppressWarnings("unchecked")
    private List<String> shownKeys() {
        return (List<String>) ((JavascriptExecutor) browser).executeScript(
            "return Array.from(document.querySelectorAll('#messages tr.msg .msg-key')).map(e => e.textContent);");
    }
}
