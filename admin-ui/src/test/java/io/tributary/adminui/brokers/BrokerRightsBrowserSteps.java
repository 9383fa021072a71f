package io.tributary.adminui.brokers;

import static io.tributary.adminui.testing.ProxyJson.CLUSTER;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.AdminUiApplication;
import io.tributary.adminui.security.SignInForm;
import io.tributary.adminui.testing.ProxyJson;
import io.tributary.adminui.testing.StubRestProxy;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The Brokers and Reassignments pages show their controls only to whom the brokers allow them: on a UI
 * that signs users in, over a stub proxy, "viewer" (DESCRIBE on the cluster) sees a broker's configs
 * without inputs and the ongoing reassignments without Cancel or the move form; "operator" (ALTER and
 * ALTER_CONFIGS too) gets them.
 */
public final class BrokerRightsBrowserSteps {

    private static final String V3 = "/v3/clusters/" + CLUSTER;

    private final WebDriver browser;
    private final WebDriverWait wait;

    public BrokerRightsBrowserSteps(WebDriver browser, WebDriverWait wait) {
        this.browser = browser;
        this.wait = wait;
    }

    /** Starts the stub proxy and a UI of its own, runs the steps, and stops both. */
    public void run() throws Exception {
        try (StubRestProxy proxy = stub();
             ConfigurableApplicationContext app = SpringApplication.run(AdminUiApplication.class, "--server.port=0",
                 "--server.address=127.0.0.1", "--admin-ui.rest-proxy-url=" + proxy.url(),
                 "--admin-ui.authentication.method=basic")) {
            URI ui = URI.create("http://127.0.0.1:" + ((WebServerApplicationContext) app).getWebServer().getPort());
            SignInForm form = new SignInForm(browser, wait, ui);

            form.signIn("viewer", "viewer-secret");
            browser.get(ui.resolve("/#/brokers/0").toString());
            wait.until(ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("#broker-configs tr[data-broker-config='log.retention.bytes']")));
            assertThat(browser.findElements(By.cssSelector("#broker-configs input[data-config]"))).isEmpty();
            assertThat(browser.findElements(By.id("save-broker-configs"))).isEmpty();
            assertThat(browser.findElement(By.cssSelector("tr[data-broker-config='log.retention.bytes'] .change-cell"))
                .getText()).contains("needs ALTER_CONFIGS");
            browser.get(ui.resolve("/#/reassignments").toString());
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("tr[data-reassignment='orders-0']")));
            assertThat(browser.findElements(By.cssSelector("button[data-cancel]"))).isEmpty();
            assertThat(browser.findElements(By.id("move-form"))).isEmpty();
            form.signOut();

            form.signIn("operator", "operator-secret");
            browser.get(ui.resolve("/#/brokers/0").toString());
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(
                "#broker-configs tr[data-broker-config='log.retention.bytes'] input[data-config]")));
            browser.get(ui.resolve("/#/reassignments").toString());
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("button[data-cancel='orders-0']")));
            assertThat(browser.findElements(By.id("move-form"))).hasSize(1);
            form.signOut();
        }
    }

    private static StubRestProxy stub() throws Exception {
        StubRestProxy proxy = new StubRestProxy().users(Map.of("viewer", "viewer-secret", "operator", "operator-secret"))
            .on("GET", "/v3/clusters", 200, ProxyJson.clusters(0))
            .onFor("viewer", "GET", V3, 200, ProxyJson.cluster(List.of("DESCRIBE")))
            .onFor("operator", "GET", V3, 200, ProxyJson.cluster(List.of("DESCRIBE", "ALTER", "ALTER_CONFIGS")))
            .on("GET", V3 + "/brokers", 200, ProxyJson.list(List.of(ProxyJson.broker(0, null))))
            .on("GET", V3 + "/brokers/0/partition-replicas", 200, ProxyJson.list(List.of()))
            .on("GET", V3 + "/brokers/0/log-dirs", 200, ProxyJson.list(List.of("{\"log_dir\":\"/data\",\"error\":null,"
                + "\"size_bytes\":10,\"replicas\":[]}")))
            .on("GET", V3 + "/brokers/0/configs", 200, ProxyJson.list(List.of("{\"name\":\"log.retention.bytes\","
                + "\"value\":\"-1\",\"is_default\":true,\"is_read_only\":false,\"is_sensitive\":false,"
                + "\"source\":\"DEFAULT_CONFIG\",\"synonyms\":[]}")))
            .on("GET", V3 + "/broker-configs", 200, ProxyJson.list(List.of()))
            .on("GET", V3 + "/topics/-/partitions/-/reassignment", 200, ProxyJson.list(List.of("{\"topic_name\":"
                + "\"orders\",\"partition_id\":0,\"adding_replicas\":[1],\"removing_replicas\":[0],"
                + "\"target_replica_ids\":[1],\"isr_ids\":[0],\"leader_id\":0,\"progress\":[]}")));
        return proxy;
    }
}
