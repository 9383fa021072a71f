package io.tributary.adminui.sharegroups;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.adminui.testing.BrowserSteps;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Share groups (KIP-932) in the UI, run by {@code AdminUiBrowserIT} against the real cluster: two
 * {@link KafkaShareConsumer}s in a group show in the list (state, members, coordinator; the state
 * filter leaves it out when another state is chosen) and on the group's page (epochs, both members
 * with the topic's two partitions between them, start offsets shown or said to be unavailable);
 * a {@code share.*} config changed on the page is what the brokers then describe; once the members
 * have left, the group is deleted through the confirmation dialog. Then a group whose consumer rejected
 * some records shows its lag and archived records in the list and in its partitions table.
 */
public final class ShareGroupsBrowserSteps extends BrowserSteps {

    public ShareGroupsBrowserSteps(WebDriver browser, WebDriverWait wait, URI ui, String bootstrap,
            Path screenshots) {
        super(browser, wait, ui, bootstrap, screenshots);
    }

    /** A share consumer polling on its own thread until closed (the client is not thread-safe). */
    private final class Member implements AutoCloseable {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        Member(String group, String topic, String clientId) {
            Map<String, Object> settings = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, group, ConsumerConfig.CLIENT_ID_CONFIG, clientId);
            thread = new Thread(() -> {
                try (KafkaShareConsumer<byte[], byte[]> consumer = new KafkaShareConsumer<>(settings,
                        new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                    consumer.subscribe(List.of(topic));
                    while (running.get()) {
                        consumer.poll(Duration.ofMillis(200));
                    }
                }
            }, "ui-share-member-" + clientId);
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join(Duration.ofSeconds(30).toMillis());
        }
    }

    @Override
    public void run() throws Exception {
        String topic = createTopic("ui-share-", 2);
        String group = topic + "-workers";
        By row = By.cssSelector("tr[data-share-group='" + group + "']");
        // The polls below click Refresh, which replaces the elements they read.
        WebDriverWait refreshing = new WebDriverWait(browser, Duration.ofSeconds(60));
        refreshing.ignoring(StaleElementReferenceException.class);
        try (Member first = new Member(group, topic, "ui-share-1"); Member second = new Member(group, topic,
                "ui-share-2")) {
            // The list, filtered to the group: stable, two members, broker 0 coordinates it.
            browser.get(ui.resolve("/#/").toString());
            wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("nav a[href='#/share-groups']")))
                .click();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("share-group-filter"))).sendKeys(group);
            // The members' first heartbeat may come after the page's first load: refresh until the group
            // is listed, then until both members are in.
            refreshing.until(d -> settled(d, "share-group-list", "share-groups-refresh", () ->
                d.findElement(By.id("share-group-total")).getText().equals("1 share group matching “" + group + "”")));
            refreshing.until(d -> settled(d, "share-group-list", "share-groups-refresh", () -> d.findElements(row)
                .stream().anyMatch(r -> r.findElement(By.cssSelector(".share-group-members")).getText().equals("2"))));
            WebElement shown = browser.findElement(row);
            assertThat(shown.findElement(By.cssSelector(".share-group-state")).getText()).isEqualTo("Stable");
            assertThat(shown.findElement(By.cssSelector(".share-group-coordinator")).getText()).isEqualTo("0");
            screenshot("share-groups");

            // The state filter: not among the empty groups, back with all states.
            new Select(browser.findElement(By.id("share-group-state"))).selectByValue("EMPTY");
            wait.until(ExpectedConditions.textToBe(By.id("share-group-total"), "0 share groups matching “" + group
                + "” in state empty"));
            new Select(browser.findElement(By.id("share-group-state"))).selectByValue("");
            wait.until(ExpectedConditions.visibilityOfElementLocated(row));

            // The group's page: epochs, both members at the assignment epoch with both partitions between them.
            browser.findElement(row).findElement(By.linkText(group)).click();
            wait.until(ExpectedConditions.textToBe(By.id("share-group-id"), group));
            refreshing.until(d -> settled(d, "share-group-overview", "share-group-refresh", () -> {
                List<WebElement> members = d.findElements(By.cssSelector("#share-members tbody tr"));
                // Partitions are assigned once the coordinator has initialized their share state (Kafka 4.4):
                // an epoch with a partial assignment may come first.
                Set<String> held = new HashSet<>();
                members.forEach(m -> held.addAll(List.of(m.findElements(By.tagName("td")).get(3).getText()
                    .split(",\\s*"))));
                return members.size() == 2 && members.stream().noneMatch(m -> m.getText().contains("reconciling"))
                    && held.containsAll(List.of(topic + "-0", topic + "-1"));
            }));
            assertThat(text("#share-group-state")).isEqualTo("Stable");
            assertThat(text("#share-group-members")).isEqualTo("2");
            assertThat(text("#share-group-coordinator")).isEqualTo("0");
            assertThat(Integer.parseInt(text("#share-group-assignment-epoch"))).isPositive();
            Set<String> assigned = new HashSet<>();
            Set<String> clients = new HashSet<>();
            for (WebElement member : browser.findElements(By.cssSelector("#share-members tbody tr"))) {
                List<WebElement> cells = member.findElements(By.tagName("td"));
                clients.add(cells.get(0).getText());
                assertThat(cells.get(2).getText()).as("member epoch").isEqualTo(text("#share-group-assignment-epoch"));
                for (String partition : cells.get(3).getText().split(",\\s*")) {
                    assigned.add(partition);
                }
            }
            assertThat(clients).containsExactlyInAnyOrder("ui-share-1", "ui-share-2");
            assertThat(assigned).containsExactlyInAnyOrder(topic + "-0", topic + "-1");
            // Delete is only for empty groups.
            assertThat(browser.findElement(By.id("delete-share-group")).isEnabled()).isFalse();
            // Partitions: a table once the brokers serve DescribeShareGroupOffsets, else the reason.
            List<WebElement> unavailable = browser.findElements(By.id("share-partitions-unavailable"));
            if (!unavailable.isEmpty()) {
                assertThat(unavailable.get(0).getText()).startsWith("Not available: ")
                    .contains("DESCRIBE_SHARE_GROUP_OFFSETS");
            } else {
                assertThat(browser.findElements(By.cssSelector("#share-partitions, #no-share-partitions")))
                    .isNotEmpty();
            }

            // A share.* config changed on the page is what the brokers describe afterwards.
            WebElement limit = browser.findElement(By.cssSelector("input[data-config='share.delivery.count.limit']"
                + ":not([type=checkbox])"));
            limit.sendKeys("3");
            browser.findElement(By.id("save-configs")).click();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("configs-saved")));
            WebElement configRow = browser.findElement(By.cssSelector(
                "tr[data-config-row='share.delivery.count.limit']"));
            assertThat(configRow.findElement(By.cssSelector("td.value")).getText()).isEqualTo("3");
            assertThat(configRow.getText()).contains("overridden").contains("This group");
            assertThat(describedConfig(group, "share.delivery.count.limit")).isEqualTo("3");
            screenshot("share-group");
        }

        // The members left: refresh until the group is empty, then delete it, asked first.
        refreshing.until(d -> settled(d, "share-group-overview", "share-group-refresh", () ->
            d.findElement(By.id("share-group-state")).getText().equals("Empty")));
        assertThat(browser.findElement(By.id("no-share-members")).getText()).contains("empty");
        WebElement delete = wait.until(ExpectedConditions.elementToBeClickable(By.id("delete-share-group")));
        delete.click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm")));
        assertThat(browser.findElement(By.id("confirm-text")).getText()).contains(group);
        browser.findElement(By.id("confirm-ok")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("status"), "Share group " + group
            + " deleted."));
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("share-groups-title")));
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            assertThat(admin.listGroups(new ListGroupsOptions().withTypes(Set.of(GroupType.SHARE))).all()
                .get(30, TimeUnit.SECONDS)).noneMatch(g -> g.groupId().equals(group));
        }

        lagAndArchivedRecords();
    }

    /**
     * Ten records delivered to a consumer that rejects three of them and accepts the rest: while it is still
     * a member, the group's page shows the partition's start offset (10), lag 0, three records archived as
     * rejected, none at the delivery limit, nothing in flight, no lock expired. Once it has left and four more
     * records are written, the list and the page show a lag of 4, and the leader's meters "—" (a leader
     * forgets a group's share-partitions when its last consumer there leaves).
     */
    private void lagAndArchivedRecords() throws Exception {
        String topic = createTopic("ui-share-lag-", 1);
        String group = topic + "-workers";
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            // Set before the group's first fetch: it starts at the records written before it.
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, group), List.of(
                new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET))))
                .all().get(30, TimeUnit.SECONDS);
        }
        produce(topic, 0, 10);
        Set<Long> rejected = Set.of(1L, 4L, 7L);
        Map<String, Object> settings = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            ConsumerConfig.GROUP_ID_CONFIG, group, ConsumerConfig.CLIENT_ID_CONFIG, "ui-share-lag",
            "share.acknowledgement.mode", "explicit");
        WebDriverWait refreshing = new WebDriverWait(browser, Duration.ofSeconds(60));
        refreshing.ignoring(StaleElementReferenceException.class);
        By partition = By.cssSelector("#share-partitions tr[data-partition='" + topic + "-0']");
        try (KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(settings, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            Set<Long> acknowledged = new HashSet<>();
            await().atMost(Duration.ofSeconds(60)).pollInSameThread().until(() -> {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    consumer.acknowledge(record, rejected.contains(record.offset()) ? AcknowledgeType.REJECT
                        : AcknowledgeType.ACCEPT);
                    acknowledged.add(record.offset());
                }
                consumer.commitSync();
                return acknowledged.size() == 10;
            });

            // Still a member: its share-partition is loaded on the leader, whose meters the page shows.
            browser.get(ui.resolve("/#/share-groups/" + group).toString());
            wait.until(ExpectedConditions.textToBe(By.id("share-group-id"), group));
            refreshing.until(d -> settled(d, "share-group-overview", "share-group-refresh", () ->
                !d.findElements(partition).isEmpty() && cell(partition, ".share-archived-rejected").equals("3")
                    && cell(partition, ".share-start-offset").equals("10")));
            assertThat(cell(partition, ".share-lag")).isEqualTo("0");
            assertThat(cell(partition, ".share-archived-delivery-limit")).isEqualTo("0");
            assertThat(cell(partition, ".share-in-flight")).isEqualTo("0");
            assertThat(cell(partition, ".share-lock-expiries")).isEqualTo("0");
            assertThat(browser.findElement(By.cssSelector("#share-partitions thead")).getText())
                .contains("Archived: rejected\nsince the leader loaded it")
                .contains("Archived: delivery limit\nsince the leader loaded it");
            screenshot("share-group-partitions");
        }
        produce(topic, 10, 4);

        By row = By.cssSelector("tr[data-share-group='" + group + "']");
        browser.get(ui.resolve("/#/share-groups").toString());
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("share-group-filter"))).sendKeys(group);
        refreshing.until(d -> settled(d, "share-group-list", "share-groups-refresh", () -> d.findElements(row).stream()
            .anyMatch(r -> r.findElement(By.cssSelector(".share-group-lag")).getText().equals("4"))));

        browser.findElement(row).findElement(By.linkText(group)).click();
        wait.until(ExpectedConditions.textToBe(By.id("share-group-id"), group));
        refreshing.until(d -> settled(d, "share-group-overview", "share-group-refresh", () ->
            !d.findElements(partition).isEmpty() && cell(partition, ".share-lag").equals("4")
                && cell(partition, ".share-archived-rejected").startsWith("—")));
        assertThat(text("#share-group-lag")).isEqualTo("4");
        assertThat(cell(partition, ".share-start-offset")).isEqualTo("10");
        assertThat(browser.findElement(partition).findElement(By.cssSelector(".share-in-flight")).getAttribute("title"))
            .startsWith("Unknown: not loaded on its leader");
    }

    /**
     * On an admin UI that cannot read broker 0's metrics: a share group's partition shows its start offset
     * and lag, and "—" for the leader's meters with the reason as tooltip.
     */
    public void metricsOfAnUnreachableBrokerAreDashes() throws Exception {
        String topic = createTopic("ui-share-nometrics-", 1);
        String group = topic + "-workers";
        try (Member member = new Member(group, topic, "ui-share-nometrics")) {
            browser.get(ui.resolve("/#/share-groups/" + group).toString());
            WebDriverWait refreshing = new WebDriverWait(browser, Duration.ofSeconds(60));
            refreshing.ignoring(StaleElementReferenceException.class);
            By partition = By.cssSelector("#share-partitions tr[data-partition='" + topic + "-0']");
            // The page may have been opened before the member's first heartbeat made the group: load it again.
            refreshing.until(d -> {
                if (d.findElements(By.id("share-group-overview")).isEmpty()) {
                    d.navigate().refresh();
                    return false;
                }
                return settled(d, "share-group-overview", "share-group-refresh", () -> !d.findElements(partition).isEmpty());
            });
            assertThat(cell(partition, ".share-start-offset")).isEqualTo("0");
            assertThat(cell(partition, ".share-lag")).isEqualTo("0");
            for (String meter : List.of(".share-in-flight", ".share-archived-rejected",
                    ".share-archived-delivery-limit", ".share-lock-expiries")) {
                WebElement shown = browser.findElement(partition).findElement(By.cssSelector(meter));
                assertThat(shown.getText()).startsWith("—");
                assertThat(shown.getAttribute("title")).as(meter)
                    .isEqualTo("Unknown: the metrics of broker 0 could not be read");
            }
            screenshot("share-group-metrics-unreachable");
        }
    }

    private String cell(By row, String css) {
        return browser.findElement(row).findElement(By.cssSelector(css)).getText().trim();
    }

    private void produce(String topic, int from, int count) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new StringSerializer(), new StringSerializer())) {
            for (int i = from; i < from + count; i++) {
                producer.send(new ProducerRecord<>(topic, "r" + i)).get(30, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * Whether {@code shown} holds for what the page shows once no load is in flight (the area named
     * {@code areaId} is not aria-busy); when it does not, clicks {@code refreshId} for a new load. So
     * after a true answer nothing replaces the page under the caller's next reads.
     */
    private static boolean settled(WebDriver d, String areaId, String refreshId,
            java.util.function.BooleanSupplier shown) {
        if (d.findElement(By.id(areaId)).getAttribute("aria-busy") != null) {
            return false;
        }
        if (shown.getAsBoolean()) {
            return true;
        }
        d.findElement(By.id(refreshId)).click();
        return false;
    }

    private String describedConfig(String group, String name) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.GROUP, group);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            return admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource).get(name)
                .value();
        }
    }
}
