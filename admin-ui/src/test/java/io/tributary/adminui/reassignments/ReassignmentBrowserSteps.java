package io.tributary.adminui.reassignments;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.AdminUiApplication;
import io.tributary.adminui.testing.BrowserSteps;
import io.tributary.adminui.testing.ClusterProcesses;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The Reassignments page on a two-broker cluster ({@link ClusterProcesses#startTwoBrokers()}, and a UI of its
 * own on its proxy): a topic
 * whose one partition lives on broker 0 is moved to broker 1 from the page's form (plan shown first,
 * then started); the page shows the move ongoing or finished, then its replicas as [1], and so does
 * the cluster. A throttled move of 3 MB is shown ongoing with its progress and cancelled from the page.
 */
public class ReassignmentBrowserSteps extends BrowserSteps {

    public ReassignmentBrowserSteps(WebDriver browser, WebDriverWait wait, URI ui, String bootstrap,
            Path screenshots) {
        super(browser, wait, ui, bootstrap, screenshots);
    }

    /** Starts a UI on the proxy of {@code cluster} (two brokers, started by the caller), runs the steps, stops it. */
    public static void runOn(ClusterProcesses cluster, WebDriver browser, WebDriverWait wait, Path screenshots)
            throws Exception {
        try (ConfigurableApplicationContext ui = SpringApplication.run(AdminUiApplication.class, "--server.port=0",
                 "--server.address=127.0.0.1", "--admin-ui.rest-proxy-url=" + cluster.restProxyUrl())) {
            URI url = URI.create("http://127.0.0.1:" + ((WebServerApplicationContext) ui).getWebServer().getPort());
            new ReassignmentBrowserSteps(browser, wait, url, cluster.bootstrapServers(), screenshots).run();
        }
    }

    @Override
    public void run() throws Exception {
        String topic = "ui-move-" + Long.toHexString(System.nanoTime());
        try (Admin admin = admin()) {
            wait.until(d -> brokers(admin) == 2);
            admin.createTopics(List.of(new NewTopic(topic, Map.of(0, List.of(0))))).all().get(30, TimeUnit.SECONDS);
        }
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < 100; i++) {
                producer.send(new ProducerRecord<>(topic, 0, null, "record-" + i));
            }
            producer.flush();
        }

        browser.get(ui.resolve("/#/reassignments").toString());
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("no-reassignments")));
        browser.findElement(By.id("move-topic")).sendKeys(topic);
        wait.until(ExpectedConditions.elementToBeClickable(By.id("move-broker-1"))).click();
        browser.findElement(By.id("move-plan")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#move-plan-table tr[data-plan='0']")));
        assertThat(browser.findElement(By.cssSelector("input[data-plan-partition='0']")).getAttribute("value"))
            .isEqualTo("1");
        assertThat(browser.findElement(By.cssSelector("#move-plan-table tr[data-plan='0']")).getText())
            .contains("[0]");
        screenshot("reassignment-plan");
        browser.findElement(By.id("move-start")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("move-started")));
        wait.until(d -> !d.findElements(By.cssSelector("tr[data-reassignment='" + topic + "-0'], tr[data-finished='"
            + topic + "-0']")).isEmpty());
        wait.until(ExpectedConditions.textToBe(By.cssSelector("tr[data-finished='" + topic + "-0'] .replicas-now"),
            "[1]"));
        assertThat(browser.findElement(By.cssSelector("tr[data-finished='" + topic + "-0'] .outcome")).getText())
            .isEqualTo("Done");
        screenshot("reassignment-done");
        assertThat(replicas(topic)).containsExactly(1);

        throttledMoveIsShownOngoingAndCancelled();
    }

    /**
     * 3 MB at 10 KB/s: beyond the follower's first fetch (1 MB, which no throttle holds back) the copy
     * waits, so the page shows the move ongoing with its progress; Cancel puts the partition back on broker 0.
     */
    private void throttledMoveIsShownOngoingAndCancelled() throws Exception {
        String topic = "ui-slow-" + Long.toHexString(System.nanoTime());
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(topic, Map.of(0, List.of(0))))).all().get(30, TimeUnit.SECONDS);
        }
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (int i = 0; i < 60; i++) {
                producer.send(new ProducerRecord<>(topic, 0, null, new byte[50_000]));
            }
            producer.flush();
        }
        WebElement topicInput = browser.findElement(By.id("move-topic"));
        topicInput.clear();
        topicInput.sendKeys(topic);
        browser.findElement(By.id("move-throttle")).sendKeys("10000");
        browser.findElement(By.id("move-plan")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#move-plan-table tr[data-plan='0']")));
        browser.findElement(By.id("move-start")).click();
        By row = By.cssSelector("#reassignments tr[data-reassignment='" + topic + "-0']");
        wait.until(ExpectedConditions.visibilityOfElementLocated(row));
        wait.until(d -> d.findElement(row).findElements(By.cssSelector(".replica-progress[data-broker='1'] progress"))
            .size() == 1);
        assertThat(browser.findElement(row).findElement(By.cssSelector(".target")).getText()).isEqualTo("[1]");
        screenshot("reassignment-ongoing");

        browser.findElement(row).findElement(By.cssSelector("button[data-cancel]")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm-ok"))).click();
        By finished = By.cssSelector("tr[data-finished='" + topic + "-0'] .outcome");
        wait.until(ExpectedConditions.textToBe(finished, "Cancelled"));
        assertThat(browser.findElement(By.cssSelector("tr[data-finished='" + topic + "-0'] .replicas-now")).getText())
            .isEqualTo("[0]");
        assertThat(replicas(topic)).containsExactly(0);
    }

    private List<Integer> replicas(String topic) throws Exception {
        try (Admin admin = admin()) {
            return admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic)
                .partitions().get(0).replicas().stream().map(Node::id).toList();
        }
    }

    private Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    }

    private static int brokers(Admin admin) {
        try {
            return admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).size();
        } catch (Exception e) {
            return 0;
        }
    }
}
