package io.tributary.adminui.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.testing.BrowserSteps;
import io.tributary.adminui.testing.ClusterProcesses;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Sign-in end to end, run by {@code AdminUiBrowserIT} on its secured cluster: a broker with SCRAM
 * users and ACLs ({@link ClusterProcesses#startSecured()}), its proxy on {@code basic}, and a UI with
 * {@code admin-ui.authentication.method=basic}. alice (everything on topic t, may create topics)
 * sees t with its delete, produce, partition and config controls, and not carol-only; bob (READ and
 * DESCRIBE on t) sees t without any of them; a wrong password is refused on the sign-in page. On
 * share group sg, alice (everything on it) gets the config form and Delete; bob (DESCRIBE only) sees
 * the group without them, and without its configs. {@link #grant(String)} makes the users, topics,
 * group and ACLs first; the secured cluster is shared with {@code SecurityPagesBrowserSteps}, whose
 * users and ACLs these steps do not touch.
 */
public final class SignInBrowserSteps extends BrowserSteps {

    private static final String ALICE_PASSWORD = "alice-ui-pw-Jd47";
    private static final String BOB_PASSWORD = "bob-ui-pw-Qe90";
    private static final String SHARE_GROUP = "sg";

    private final SignInForm form;

    /** @param ui a UI signing users in on the secured cluster {@link #grant(String)} was run on */
    public SignInBrowserSteps(WebDriver browser, WebDriverWait wait, URI ui, String bootstrap, Path screenshots) {
        super(browser, wait, ui, bootstrap, screenshots);
        this.form = new SignInForm(browser, wait, ui);
    }

    @Override
    public void run() throws Exception {
        wrongPasswordIsRefused();
        aliceMayDoEverythingOnT();
        bobMayOnlyReadT();
    }

    /**
     * Users alice, bob and carol; topics t and carol-only; share group sg (empty); the ACLs of the scenario.
     * {@code bootstrap} is the secured cluster's listener for super users.
     */
    public static void grant(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.alterUserScramCredentials(List.of(scram("alice", ALICE_PASSWORD), scram("bob", BOB_PASSWORD),
                scram("carol", "carol-ui-pw-Zx31"))).all().get(30, TimeUnit.SECONDS);
            admin.createTopics(List.of(new NewTopic("t", 1, (short) 1), new NewTopic("carol-only", 1, (short) 1)))
                .all().get(30, TimeUnit.SECONDS);
            admin.createAcls(List.of(
                topic("alice", AclOperation.ALL, "t"),
                cluster("alice", AclOperation.CREATE), cluster("alice", AclOperation.DESCRIBE),
                topic("bob", AclOperation.READ, "t"), topic("bob", AclOperation.DESCRIBE, "t"),
                topic("carol", AclOperation.ALL, "carol-only"),
                group("alice", AclOperation.ALL, SHARE_GROUP), group("bob", AclOperation.DESCRIBE, SHARE_GROUP)))
                .all().get(30, TimeUnit.SECONDS);
            // The share group exists once a share consumer (the internal listener's super user) has joined it.
            try (KafkaShareConsumer<byte[], byte[]> consumer = new KafkaShareConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ConsumerConfig.GROUP_ID_CONFIG, SHARE_GROUP),
                    new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                consumer.subscribe(List.of("t"));
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
                    consumer.poll(Duration.ofMillis(100));
                    return admin.describeShareGroups(List.of(SHARE_GROUP)).all().get(30, TimeUnit.SECONDS)
                        .get(SHARE_GROUP).members().size() == 1;
                });
            }
        }
    }

    private void wrongPasswordIsRefused() {
        browser.get(ui.resolve("/#/topics").toString());
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("login-form")));
        assertThat(browser.getCurrentUrl()).contains("/login");
        form.submit("alice", "not-" + ALICE_PASSWORD);
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("login-error"),
            "Wrong user name or password."));
        assertThat(browser.findElements(By.id("signed-in-user"))).isEmpty();
    }

    private void aliceMayDoEverythingOnT() throws IOException {
        form.signIn("alice", ALICE_PASSWORD);

        browser.get(ui.resolve("/#/topics").toString());
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("tr[data-topic='t']")));
        assertThat(browser.findElements(By.cssSelector("input[data-select='t']"))).as("t can be ticked for deletion")
            .hasSize(1);
        assertThat(browser.findElements(By.cssSelector("tr[data-topic='carol-only']"))).as("carol's topic").isEmpty();
        assertThat(browser.findElements(By.id("create-topic"))).hasSize(1);
        screenshot("signed-in-alice-topics");

        browser.get(ui.resolve("/#/topics/t/messages").toString());
        wait.until(ExpectedConditions.elementToBeClickable(By.id("produce-open"))).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("produce-send")));

        browser.get(ui.resolve("/#/topics/t").toString());
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#partitions tbody tr")));
        assertThat(browser.findElements(By.id("add-partitions"))).hasSize(1);
        assertThat(browser.findElements(By.id("save-configs"))).hasSize(1);

        browser.get(ui.resolve("/#/share-groups/" + SHARE_GROUP).toString());
        wait.until(ExpectedConditions.textToBe(By.id("share-group-id"), SHARE_GROUP));
        assertThat(browser.findElements(By.cssSelector("input[data-config='share.auto.offset.reset']"))).hasSize(1);
        assertThat(browser.findElements(By.id("save-configs"))).hasSize(1);
        assertThat(browser.findElements(By.id("delete-share-group"))).hasSize(1);
        screenshot("signed-in-alice-share-group");

        form.signOut();
    }

    private void bobMayOnlyReadT() throws IOException {
        form.signIn("bob", BOB_PASSWORD);

        browser.get(ui.resolve("/#/topics").toString());
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("tr[data-topic='t']")));
        assertThat(browser.findElements(By.cssSelector("input[data-select]"))).as("deletion checkboxes").isEmpty();
        assertThat(browser.findElements(By.cssSelector("tr[data-topic='carol-only']"))).isEmpty();
        assertThat(browser.findElements(By.id("create-topic"))).as("create form").isEmpty();
        screenshot("signed-in-bob-topics");

        browser.get(ui.resolve("/#/topics/t/messages").toString());
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("messages-title")));
        assertThat(browser.findElements(By.id("produce-send"))).as("produce button").isEmpty();
        assertThat(browser.findElements(By.id("produce-form"))).isEmpty();

        browser.get(ui.resolve("/#/topics/t").toString());
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#partitions tbody tr")));
        assertThat(browser.findElements(By.id("add-partitions"))).isEmpty();
        assertThat(browser.findElements(By.id("save-configs"))).isEmpty();
        assertThat(browser.findElements(By.id("configs-hidden"))).as("no DESCRIBE_CONFIGS: configs not shown")
            .hasSize(1);

        browser.get(ui.resolve("/#/share-groups").toString());
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("tr[data-share-group='"
            + SHARE_GROUP + "']")));
        browser.get(ui.resolve("/#/share-groups/" + SHARE_GROUP).toString());
        wait.until(ExpectedConditions.textToBe(By.id("share-group-id"), SHARE_GROUP));
        assertThat(browser.findElement(By.id("share-group-state")).getText()).isEqualTo("Empty");
        assertThat(browser.findElements(By.id("save-configs"))).as("no ALTER_CONFIGS: no config form").isEmpty();
        assertThat(browser.findElements(By.id("delete-share-group"))).as("no DELETE: no delete button").isEmpty();
        assertThat(browser.findElements(By.id("share-configs-hidden"))).as("no DESCRIBE_CONFIGS: configs not shown")
            .hasSize(1);
        screenshot("signed-in-bob-share-group");

        form.signOut();
    }

    private static UserScramCredentialUpsertion scram(String user, String password) {
        return new UserScramCredentialUpsertion(user, new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096),
            password);
    }

    private static AclBinding topic(String user, AclOperation operation, String topic) {
        return new AclBinding(new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL),
            new AccessControlEntry("User:" + user, "*", operation, AclPermissionType.ALLOW));
    }

    private static AclBinding group(String user, AclOperation operation, String group) {
        return new AclBinding(new ResourcePattern(ResourceType.GROUP, group, PatternType.LITERAL),
            new AccessControlEntry("User:" + user, "*", operation, AclPermissionType.ALLOW));
    }

    private static AclBinding cluster(String user, AclOperation operation) {
        return new AclBinding(new ResourcePattern(ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL),
            new AccessControlEntry("User:" + user, "*", operation, AclPermissionType.ALLOW));
    }
}
