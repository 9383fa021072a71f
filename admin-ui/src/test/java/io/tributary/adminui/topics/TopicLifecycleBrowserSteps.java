package io.tributary.adminui.topics;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.testing.BrowserSteps;
import io.tributary.adminui.testing.RestProxyCalls;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A topic's life in the UI, run by {@code AdminUiBrowserIT} on its one-broker cluster: the overview
 * shows the cluster id the proxy reports, one broker up and none down; a topic created from the
 * Topics page's form (a second create of the name shows Kafka's refusal), found by the filter with its
 * partitions and replication factor, shown on its page (partitions led by broker 0, the config set at
 * creation), and deleted through the confirmation dialog (cancelling first keeps it), after which the
 * proxy no longer knows it.
 */
public final class TopicLifecycleBrowserSteps extends BrowserSteps {

    private final URI restProxy;

    /** @param restProxy the REST proxy the UI reads through, asked directly to check what the UI showed */
    public TopicLifecycleBrowserSteps(WebDriver browser, WebDriverWait wait, URI ui, String bootstrap,
            Path screenshots, URI restProxy) {
        super(browser, wait, ui, bootstrap, screenshots);
        this.restProxy = restProxy;
    }

    @Override
    public void run() throws Exception {
        String clusterId = RestProxyCalls.clusterId(restProxy);
        String topic = "ui-orders-" + Long.toHexString(System.nanoTime());

        // Overview: the cluster id the proxy reports, one broker up and none down, broker 0 in the table.
        browser.get(ui.resolve("/#/").toString());
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("cluster-id"), clusterId));
        assertThat(text("#cluster-id")).isEqualTo(clusterId);
        assertThat(text("#broker-count")).isEqualTo("1");
        assertThat(text("#controller-id")).isEqualTo("0");
        assertThat(text("#offline-count")).isEqualTo("0");
        assertThat(browser.findElements(By.cssSelector("#brokers tbody tr"))).hasSize(1);
        assertThat(text("#brokers tbody tr td")).isEqualTo("0");
        assertThat(text("#brokers tr[data-broker='0'] td.broker-status")).as("status, in words").isEqualTo("Up");
        assertThat(text("#broker-down-count")).isEqualTo("0");
        screenshot("overview");

        // Topics: create one from the form.
        browser.findElement(By.cssSelector("nav a[href='#/topics']")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("new-name")));
        browser.findElement(By.id("new-name")).sendKeys(topic);
        clearAndType("new-partitions", "3");
        clearAndType("new-replication", "1");
        browser.findElement(By.id("new-configs")).sendKeys("cleanup.policy=compact");
        browser.findElement(By.id("create-topic")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("status"), "Topic " + topic + " created."));

        // The same name again: the proxy's (Kafka's) message shows as an alert.
        browser.findElement(By.id("new-name")).sendKeys(topic);
        browser.findElement(By.id("create-topic")).click();
        WebElement alert = wait.until(ExpectedConditions.visibilityOfElementLocated(
            By.cssSelector(".form-message [role=alert]")));
        assertThat(alert.getText()).contains(topic).containsIgnoringCase("already exists");

        // The filter finds it, with its partition count and replication factor.
        browser.findElement(By.id("filter")).sendKeys("ui-orders");
        // The list is reloaded after typing stops: wait for the one of the whole filter.
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("topic-total"), "matching “ui-orders”"));
        By row = By.cssSelector("tr[data-topic='" + topic + "']");
        wait.until(ExpectedConditions.visibilityOfElementLocated(row));
        assertThat(text("#topic-total")).startsWith("1 topic");
        List<WebElement> cells = browser.findElement(row).findElements(By.tagName("td"));
        assertThat(cells.get(0).getText()).isEqualTo("3");
        assertThat(cells.get(1).getText()).isEqualTo("1");
        assertThat(cells.get(2).getText()).isEqualTo("0");
        screenshot("topics");

        // Topic page: three partitions, each led by broker 0 with ISR [0]; the config set at creation.
        browser.findElement(row).findElement(By.linkText(topic)).click();
        wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#partitions tbody tr"), 3));
        assertThat(text("#topic-name")).isEqualTo(topic);
        for (WebElement partition : browser.findElements(By.cssSelector("#partitions tbody tr"))) {
            List<WebElement> values = partition.findElements(By.tagName("td"));
            assertThat(values.get(0).getText()).as("leader").isEqualTo("0");
            assertThat(values.get(1).getText()).as("replicas").isEqualTo("[0]");
            assertThat(values.get(2).getText()).as("ISR").isEqualTo("[0]");
            assertThat(values.get(3).getText()).as("out of sync").isEqualTo("[]");
            assertThat(values.get(4).getText()).as("start offset").isEqualTo("0");
            assertThat(values.get(5).getText()).as("end offset").isEqualTo("0");
        }
        WebElement cleanup = browser.findElement(By.xpath("//table[@id='configs']//tr[th='cleanup.policy']/td[1]"));
        assertThat(cleanup.getText()).isEqualTo("compact");
        screenshot("topic");

        // The topics page at phone width: the layout holds (screenshot only).
        browser.manage().window().setSize(new Dimension(390, 844));
        browser.findElement(By.linkText("← All topics")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("filter")));
        screenshot("topics-phone");
        browser.manage().window().setSize(new Dimension(1280, 900));

        // Tick it and delete through the confirmation dialog; cancelling first keeps it.
        WebElement filter = browser.findElement(By.id("filter"));
        filter.sendKeys(topic);
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("topic-total"), "matching “" + topic + "”"));
        wait.until(ExpectedConditions.visibilityOfElementLocated(row));
        browser.findElement(By.cssSelector("input[data-select='" + topic + "']")).click();
        By deleteButton = By.id("delete-selected");
        browser.findElement(deleteButton).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm")));
        assertThat(text("#confirm-text")).contains(topic);
        browser.findElement(By.id("confirm-cancel")).click();
        wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("confirm")));
        assertThat(browser.findElements(row)).hasSize(1);

        browser.findElement(deleteButton).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm-delete"))).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("status"), "Topic " + topic + " deleted."));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("topic-total"), "0 topics"));
        assertThat(browser.findElements(row)).isEmpty();
        assertThat(RestProxyCalls.get(restProxy.resolve("/v3/clusters/" + clusterId + "/topics/" + topic)).statusCode())
            .as("the proxy no longer knows the topic").isEqualTo(404);
    }
}
