package io.tributary.adminui.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.AdminUiApplication;
import io.tributary.adminui.testing.ProxyJson;
import io.tributary.adminui.testing.StubRestProxy;
import io.tributary.adminui.testing.UiSession;
import java.net.URI;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The UI with {@code admin-ui.authentication.method=basic} in front of a REST proxy that signs
 * nobody in ({@code rest-proxy.authentication.method=none}): such a proxy answers any user name and
 * password, so the UI must not take its answer as a checked password.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SignInOpenProxyTest {

    private StubRestProxy proxy;
    private ConfigurableApplicationContext app;
    private URI ui;

    @BeforeAll
    void start() throws Exception {
        proxy = new StubRestProxy().on("GET", "/v3/clusters", 200, ProxyJson.clusters(0));
        app = SpringApplication.run(AdminUiApplication.class, "--server.port=0", "--server.address=127.0.0.1",
            "--admin-ui.rest-proxy-url=" + proxy.url(), "--admin-ui.authentication.method=basic");
        ui = URI.create("http://127.0.0.1:" + ((WebServerApplicationContext) app).getWebServer().getPort());
    }

    @AfterAll
    void stop() {
        if (app != null) {
            app.close();
        }
        proxy.close();
    }

    @Test
    void aProxyThatChecksNoPasswordSignsNobodyIn() {
        UiSession browser = new UiSession(ui);

        HttpResponse<String> answer = browser.signIn("admin", "any-password-at-all");

        assertThat(answer.statusCode()).isEqualTo(302);
        assertThat(answer.headers().firstValue("Location")).hasValueSatisfying(
            location -> assertThat(location).endsWith("/login?error"));
        assertThat(browser.get("/login?error").body()).contains("rest-proxy.authentication.method");
        assertThat(browser.get("/api/session").statusCode()).isEqualTo(401);
    }
}
