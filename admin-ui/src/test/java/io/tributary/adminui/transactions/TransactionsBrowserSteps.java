package io.tributary.adminui.transactions;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.testing.BrowserSteps;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Transactions in the UI, run by {@code AdminUiBrowserIT} against the real cluster: the message
 * browser shows an aborted transaction's record until "Committed only" is ticked; the Transactions
 * page lists a transaction left open and the partition it holds; aborting it there, after the
 * confirmation, closes it on that partition.
 */
public final class TransactionsBrowserSteps extends BrowserSteps {

    public TransactionsBrowserSteps(WebDriver browser, WebDriverWait wait, URI ui, String bootstrap, Path screenshots) {
        super(browser, wait, ui, bootstrap, screenshots);
    }

    private KafkaProducer<String, String> transactional(String id) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            ProducerConfig.TRANSACTIONAL_ID_CONFIG, id,
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class));
    }

    @Override
    public void run() throws Exception {
        String topic = createTopic("ui-txn-", 2);
        String openId = topic + "-open";
        try (KafkaProducer<String, String> finished = transactional(topic + "-finished");
                KafkaProducer<String, String> open = transactional(openId)) {
            finished.initTransactions();
            finished.beginTransaction();
            finished.send(new ProducerRecord<>(topic, 0, "k", "committed-1"));
            finished.commitTransaction();
            finished.beginTransaction();
            finished.send(new ProducerRecord<>(topic, 0, "k", "aborted-1")).get(30, TimeUnit.SECONDS);
            finished.abortTransaction();
            open.initTransactions();
            open.beginTransaction();
            open.send(new ProducerRecord<>(topic, 1, "k", "left-open")).get(30, TimeUnit.SECONDS);

            // The message browser: both records of partition 0, then only the committed one.
            browser.get(ui.resolve("/#/topics/" + topic + "/messages").toString());
            new Select(wait.until(ExpectedConditions.elementToBeClickable(By.id("msg-partition")))).selectByValue("0");
            browser.findElement(By.id("msg-load")).click();
            wait.until(d -> values().equals(List.of("committed-1", "aborted-1")));
            browser.findElement(By.id("msg-committed")).click();
            browser.findElement(By.id("msg-load")).click();
            wait.until(d -> values().equals(List.of("committed-1")));
            screenshot("messages-committed-only");

            // The Transactions page: the open transaction, its partition, who holds it.
            browser.get(ui.resolve("/#/transactions").toString());
            WebElement row = wait.until(ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("#transactions tr[data-transaction='" + openId + "']")));
            assertThat(row.findElement(By.cssSelector(".txn-state")).getText()).isEqualTo("Ongoing");
            assertThat(row.findElement(By.cssSelector(".txn-partitions")).getText()).isEqualTo(topic + "-1");
            assertThat(browser.findElement(By.cssSelector("#transactions tr[data-transaction='" + topic
                + "-finished'] .txn-state")).getText()).isEqualTo("CompleteAbort");
            WebElement held = browser.findElement(By.xpath("//table[@id='open-transactions']//tr[th='" + topic
                + "-1']"));
            assertThat(held.getText()).contains(openId).doesNotContain("Hanging");
            screenshot("transactions");

            // Abort it on its partition: asked first; then the partition has no open transaction.
            held.findElement(By.cssSelector("button[data-abort]")).click();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm-ok")));
            assertThat(browser.findElement(By.id("confirm-text")).getText()).contains(topic + "-1", openId);
            browser.findElement(By.id("confirm-ok")).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("status"), "aborted"));
            wait.until(d -> d.findElements(By.xpath("//table[@id='open-transactions']//tr[th='" + topic + "-1']"))
                .isEmpty());
            open.close(Duration.ZERO);
        }
    }

    /** The values shown, read in one script: the list may be replaced between two element reads. */
    @SuppressWarnings("unchecked")
    private List<String> values() {
        return (List<String>) ((org.openqa.selenium.JavascriptExecutor) browser).executeScript(
            "return Array.from(document.querySelectorAll('#messages .msg-value'))"
                + ".map(e => e.textContent.trim());");
    }
}
