package io.tributary.adminui.security;

import static io.tributary.adminui.testing.ProxyJson.CLUSTER;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.AdminUiApplication;
import io.tributary.adminui.testing.ProxyJson;
import io.tributary.adminui.testing.StubAuthorizationServer;
import io.tributary.adminui.testing.StubRestProxy;
import java.io.IOException;
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
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * OAuth2 sign-in in the browser, run by {@code AdminUiBrowserIT} without a cluster: a stub OpenID
 * Connect provider that approves alice at once, a stub REST proxy that lists topics only to the
 * provider's Bearer tokens, and a UI with {@code admin-ui.authentication.method=oauth2}. The topics
 * page sends the browser to the sign-in page; "Sign in with Stub IdP" goes through the provider's
 * redirect and back; the header shows alice and the topics the proxy lists for her token; sign-out
 * ends the session. Starts and stops its own stubs and UI.
 */
public final class OAuth2SignInBrowserSteps {

    private static final String TOPICS = "/v3/clusters/" + CLUSTER + "/topics";

    private final WebDriver browser;
    private final WebDriverWait wait;
    private final Path screenshots;

    public OAuth2SignInBrowserSteps(WebDriver browser, WebDriverWait wait, Path screenshots) {
        this.browser = browser;
        this.wait = wait;
        this.screenshots = screenshots;
    }

    /** Starts the stubs and the UI, runs the steps, stops them. */
    public void run() throws Exception {
        try (StubAuthorizationServer issuer = new StubAuthorizationServer("tributary-admin-ui", "ui-secret-Bn37");
             StubRestProxy proxy = new StubRestProxy()) {
            proxy.bearer(issuer::userOf)
                .on("GET", "/v3/clusters", 200, ProxyJson.clusters(0))
                .on("GET", "/v3/clusters/" + CLUSTER, 200, ProxyJson.cluster(List.of("DESCRIBE")))
                .onFor("alice", "GET", TOPICS, 200, ProxyJson.list(List.of(
                    ProxyJson.topic("alices-orders", 1, 1, List.of("DESCRIBE", "READ")))))
                .on("GET", "/topics/alices-orders/partitions", 200,
                    ProxyJson.states(ProxyJson.state(0, 0, List.of(0), List.of(0))));
            String registration = "--spring.security.oauth2.client.registration.stub.";
            try (ConfigurableApplicationContext app = SpringApplication.run(AdminUiApplication.class,
                    "--server.port=0", "--server.address=127.0.0.1", "--admin-ui.rest-proxy-url=" + proxy.url(),
                    "--admin-ui.authentication.method=oauth2", registration + "client-id=tributary-admin-ui",
                    registration + "client-secret=ui-secret-Bn37", registration + "client-name=Stub IdP",
                    registration + "scope=openid,profile",
                    "--spring.security.oauth2.client.provider.stub.issuer-uri=" + issuer.issuer())) {
                URI ui = URI.create("http://127.0.0.1:" + ((WebServerApplicationContext) app).getWebServer().getPort());
                issuer.signInAs("alice");
                aliceSignsInThroughTheProviderAndSeesHerTopics(ui);
                signOutEndsTheSession(ui);
            }
        }
    }

    private void aliceSignsInThroughTheProviderAndSeesHerTopics(URI ui) throws IOException {
        browser.get(ui.resolve("/#/topics").toString());
        wait.until(ExpectedConditions.elementToBeClickable(By.id("login-stub")));
        assertThat(browser.getCurrentUrl()).contains("/login");
        screenshot("oauth2-sign-in");
        browser.findElement(By.id("login-stub")).click();

        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("signed-in-user"), "alice"));
        browser.get(ui.resolve("/#/topics").toString());
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("tr[data-topic='alices-orders']")));
        screenshot("oauth2-signed-in-alice-topics");
    }

    private void signOutEndsTheSession(URI ui) {
        wait.until(ExpectedConditions.elementToBeClickable(By.id("sign-out"))).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("login-signed-out")));
        browser.get(ui.resolve("/#/topics").toString());
        wait.until(ExpectedConditions.elementToBeClickable(By.id("login-stub")));
        assertThat(browser.findElements(By.id("signed-in-user"))).isEmpty();
    }

    private void screenshot(String name) throws IOException {
        Path shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(shot, screenshots.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }
}
