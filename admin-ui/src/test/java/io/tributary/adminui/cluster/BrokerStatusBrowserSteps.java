package io.tributary.adminui.cluster;

import static io.tributary.adminui.testing.ProxyJson.CLUSTER;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.testing.BrowserSteps;
import io.tributary.adminui.testing.ProxyJson;
import io.tributary.adminui.testing.StubRestProxy;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The overview of a cluster with brokers down, run by {@code AdminUiBrowserIT} against a UI whose
 * proxy is {@link #degradedCluster()} (a stub: stopping a real broker would need a second one).
 * Brokers 0 and 2 are registered; broker 1 is in the replicas of an under-replicated partition and
 * broker 3 in those of an offline one, neither registered; of the {@value #UNHEALTHY_TOPICS}
 * topics with such partitions, 2 are over the bound the overview reads.
 */
public final class BrokerStatusBrowserSteps extends BrowserSteps {

    /** Topics with an under-replicated or offline partition in the stub: the bound (50) and 2 more. */
    private static final int UNHEALTHY_TOPICS = DownBrokers.MAX_TOPICS_READ + 2;

    /** @param ui a UI whose REST proxy is {@link #degradedCluster()} */
    public BrokerStatusBrowserSteps(WebDriver browser, WebDriverWait wait, URI ui, String bootstrap,
            Path screenshots) {
        super(browser, wait, ui, bootstrap, screenshots);
    }

    /** A stub proxy of the cluster described above; close it. */
    public static StubRestProxy degradedCluster() throws IOException {
        List<String> topics = new ArrayList<>(List.of(ProxyJson.topic("orders", 1, 2, 1, 0),
            ProxyJson.topic("payments", 1, 1, 0, 1)));
        for (int i = topics.size(); i < UNHEALTHY_TOPICS; i++) {
            topics.add(ProxyJson.topic(String.format("lagging-%02d", i), 1, 2, 1, 0));
        }
        return new StubRestProxy()
            .on("GET", "/v3/clusters", 200, ProxyJson.clusters(0))
            .on("GET", "/v3/clusters/" + CLUSTER + "/brokers", 200,
                ProxyJson.list(List.of(ProxyJson.broker(0, "r0"), ProxyJson.broker(2, "r2"))))
            .on("GET", "/v3/clusters/" + CLUSTER + "/topics", 200, ProxyJson.list(topics))
            .on("GET", "/topics/orders/partitions", 200, ProxyJson.states(
                ProxyJson.state(0, 0, List.of(0, 1), List.of(0))))
            .on("GET", "/topics/payments/partitions", 200, ProxyJson.states(
                ProxyJson.state(0, -1, List.of(3), List.of())));
    }

    @Override
    public void run() throws Exception {
        browser.get(ui.resolve("/#/").toString());
        wait.until(ExpectedConditions.textToBe(By.id("broker-down-count"), "2"));
        assertThat(text("#broker-count")).as("brokers up").isEqualTo("2");
        assertThat(text("#offline-count")).isEqualTo("1");
        assertThat(cells(0)).containsExactly("0", "Up", "h0", "9092", "r0", "yes");
        assertThat(cells(1)).as("down: host, port and rack unknown")
            .containsExactly("1", "Down", "unknown", "—", "—", "");
        assertThat(cells(2)).containsExactly("2", "Up", "h2", "9094", "r2", "");
        assertThat(cells(3)).containsExactly("3", "Down", "unknown", "—", "—", "");
        assertThat(text("#unchecked-topics")).startsWith(
            "2 topics with under-replicated or offline partitions were not checked for down brokers");
        WebElement table = browser.findElement(By.id("brokers"));
        ((org.openqa.selenium.JavascriptExecutor) browser).executeScript(
            "arguments[0].scrollIntoView({block: 'center'})", table);
        screenshot("overview-brokers-down");
    }

    private List<String> cells(int broker) {
        return browser.findElements(By.cssSelector("#brokers tr[data-broker='" + broker + "'] td")).stream()
            .map(e -> e.getText().trim()).toList();
    }
}
