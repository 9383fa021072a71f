package io.tributary.adminui.proxy;

import static io.tributary.adminui.testing.ProxyJson.CLUSTER;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.testing.BrowserSteps;
import io.tributary.adminui.testing.ProxyJson;
import io.tributary.adminui.testing.StubRestProxy;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A UI whose REST proxy is not up yet, run by {@code AdminUiBrowserIT}: the overview says it waits for
 * the proxy at its URL (why, and never "null") and keeps trying; once a (stub) proxy listens on that
 * port the page loads by itself and the waiting line goes away.
 */
public final class ProxyWaitBrowserSteps extends BrowserSteps {

    private final int proxyPort;

    /** @param ui a UI configured with {@code admin-ui.rest-proxy-url=http://127.0.0.1:{proxyPort}}, nothing there */
    public ProxyWaitBrowserSteps(WebDriver browser, WebDriverWait wait, URI ui, int proxyPort, Path screenshots) {
        super(browser, wait, ui, null, screenshots);
        this.proxyPort = proxyPort;
    }

    @Override
    public void run() throws Exception {
        browser.get(ui.resolve("/#/").toString());
        By waiting = By.id("proxy-wait");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(waiting,
            "Waiting for the REST proxy at http://127.0.0.1:" + proxyPort + "…"));
        String line = browser.findElement(waiting).getText();
        assertThat(line).contains("connection refused").contains("Trying again in").doesNotContain("null");
        assertThat(browser.findElements(By.cssSelector("main .error"))).as("no error instead of the page").isEmpty();
        Path shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(shot, screenshots.resolve("waiting-for-proxy.png"), StandardCopyOption.REPLACE_EXISTING);

        try (StubRestProxy proxy = new StubRestProxy(proxyPort)
                .on("GET", "/v3/clusters", 200, ProxyJson.clusters(0))
                .on("GET", "/v3/clusters/" + CLUSTER + "/brokers", 200, ProxyJson.list(List.of(ProxyJson.broker(0, null))))
                .on("GET", "/v3/clusters/" + CLUSTER + "/topics", 200,
                    ProxyJson.list(List.of(ProxyJson.topic("orders", 1, 1, 0, 0))))) {
            // No reload: the page's own retries find the proxy.
            wait.until(ExpectedConditions.textToBe(By.id("cluster-id"), CLUSTER));
            wait.until(ExpectedConditions.invisibilityOfElementLocated(waiting));
            assertThat(browser.findElement(By.id("topic-count")).getText()).startsWith("1");
        }
    }
}
