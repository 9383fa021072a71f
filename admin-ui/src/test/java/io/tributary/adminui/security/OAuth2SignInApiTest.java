package io.tributary.adminui.security;

import static io.tributary.adminui.testing.ProxyJson.CLUSTER;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.AdminUiApplication;
import io.tributary.adminui.testing.ProxyJson;
import io.tributary.adminui.testing.StubAuthorizationServer;
import io.tributary.adminui.testing.StubAuthorizationServer.Issued;
import io.tributary.adminui.testing.StubRestProxy;
import io.tributary.adminui.testing.StubRestProxy.Received;
import io.tributary.adminui.testing.UiSession;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The UI with {@code admin-ui.authentication.method=oauth2} between a stub OpenID Connect provider
 * (configured by {@code issuer-uri}, as the README shows) and a stub REST proxy that takes the
 * provider's Bearer tokens: the authorization-code sign-in (with PKCE, which the stub checks), the
 * user's access token forwarded on every proxy call, an expired token refreshed and the new one
 * forwarded, a token that cannot be refreshed ending the session, each sign-in keeping its own
 * tokens, and no token in the logs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(OutputCaptureExtension.class)
class OAuth2SignInApiTest {

    private static final String CLIENT_ID = "tributary-admin-ui";
    private static final String CLIENT_SECRET = "ui-secret-Qw82";
    private static final String TOPICS = "/v3/clusters/" + CLUSTER + "/topics";
    private static final List<String> READ_ONLY = List.of("DESCRIBE", "READ");

    /** The UI's clock (its Clock bean), which tells when a token has expired. */
    private final AheadClock clock = new AheadClock();
    private StubAuthorizationServer issuer;
    private StubRestProxy proxy;
    private ConfigurableApplicationContext app;
    private URI ui;

    @BeforeAll
    void start() throws Exception {
        issuer = new StubAuthorizationServer(CLIENT_ID, CLIENT_SECRET);
        proxy = new StubRestProxy().bearer(issuer::userOf)
            .on("GET", "/v3/clusters", 200, ProxyJson.clusters(0))
            .onFor("alice", "GET", "/v3/clusters/" + CLUSTER, 200, ProxyJson.cluster(List.of("CREATE", "DESCRIBE")))
            .onFor("bob", "GET", "/v3/clusters/" + CLUSTER, 200, ProxyJson.cluster(List.of("DESCRIBE")))
            .onFor("alice", "GET", TOPICS, 200, ProxyJson.list(List.of(
                ProxyJson.topic("alice-only", 1, 1, List.of("DESCRIBE", "READ", "WRITE")),
                ProxyJson.topic("t", 1, 1, List.of("DESCRIBE", "READ", "WRITE")))))
            .onFor("bob", "GET", TOPICS, 200, ProxyJson.list(List.of(ProxyJson.topic("t", 1, 1, READ_ONLY))))
            .onFor("bob", "GET", TOPICS + "/t", 200, ProxyJson.topic("t", 1, 1, READ_ONLY))
            .on("GET", "/topics/t/partitions", 200, ProxyJson.states(ProxyJson.state(0, 0, List.of(0), List.of(0))))
            .on("GET", "/topics/alice-only/partitions", 200,
                ProxyJson.states(ProxyJson.state(0, 0, List.of(0), List.of(0))))
            .on("GET", "/topics/t/records/stream", 200, ": ready\n\n")
            .on("POST", TOPICS + "/t/records", 200, "{\"error_code\":200,\"partition_id\":0,\"offset\":7}");
        String registration = "--spring.security.oauth2.client.registration.stub.";
        SpringApplication application = new SpringApplication(AdminUiApplication.class);
        application.addInitializers(context -> context.getBeanFactory().registerSingleton("clock", clock));
        app = application.run("--server.port=0", "--server.address=127.0.0.1",
            "--admin-ui.rest-proxy-url=" + proxy.url(), "--admin-ui.authentication.method=oauth2",
            registration + "client-id=" + CLIENT_ID, registration + "client-secret=" + CLIENT_SECRET,
            registration + "client-name=Stub IdP", registration + "scope=openid,profile",
            "--spring.security.oauth2.client.provider.stub.issuer-uri=" + issuer.issuer(),
            "--admin-ui.authentication.provider-sign-out=true");
        ui = URI.create("http://127.0.0.1:" + ((WebServerApplicationContext) app).getWebServer().getPort());
    }

    @BeforeEach
    void provider() {
        clock.reset();
        issuer.signInAs("alice").accessTokenLifetime(Duration.ofMinutes(5)).givesRefreshTokens(true)
            .refusesRefresh(false);
    }

    @AfterAll
    void stop() {
        if (app != null) {
            app.close();
        }
        proxy.close();
        issuer.close();
    }

    @Test
    void withoutSessionApiAnswers401JsonAndPagesRedirectToSignIn() {
        UiSession browser = new UiSession(ui);

        HttpResponse<String> api = browser.get("/api/topics");
        HttpResponse<String> page = browser.get("/");

        assertThat(api.statusCode()).isEqualTo(401);
        assertThat(api.headers().firstValue("Content-Type")).hasValueSatisfying(
            type -> assertThat(type).startsWith("application/json"));
        assertThat(api.body()).contains("\"status\":401");
        assertThat(page.statusCode()).isEqualTo(302);
        assertThat(page.headers().firstValue("Location")).hasValueSatisfying(
            location -> assertThat(location).endsWith("/login"));
        assertThat(browser.get("/login").body()).contains("href=\"oauth2/authorization/stub\"")
            .contains("Sign in with Stub IdP");
        assertThat(proxy.received()).noneMatch(call -> call.path().equals(TOPICS) && call.authorization() == null);
    }

    @Test
    void signedInUsersAccessTokenGoesToTheProxyOnEveryCall(CapturedOutput output) {
        UiSession alice = signedIn("alice");
        Issued login = last();
        int before = proxy.received().size();

        HttpResponse<String> topics = alice.get("/api/topics");
        HttpResponse<String> tail = alice.get("/api/topics/t/messages/stream");
        HttpResponse<String> session = alice.get("/api/session");

        assertThat(login.grant()).isEqualTo("authorization_code");
        assertThat(topics.statusCode()).isEqualTo(200);
        assertThat(topics.body()).contains("\"name\":\"alice-only\"");
        assertThat(tail.statusCode()).isEqualTo(200);
        List<Received> calls = proxy.received().subList(before, proxy.received().size());
        assertThat(calls).extracting(Received::path).contains(TOPICS, "/topics/t/partitions",
            "/topics/alice-only/partitions", "/topics/t/records/stream");
        assertThat(calls).allSatisfy(call -> assertThat(call.authorization())
            .as(call.method() + " " + call.path()).isEqualTo("Bearer " + login.accessToken()));
        assertThat(session.body()).contains("\"username\":\"alice\"").contains("CREATE")
            .doesNotContain(login.accessToken()).doesNotContain(login.refreshToken()).doesNotContain(login.idToken());
        assertNoTokenIn(output);
    }

    @Test
    void rightsComeFromTheProxyAsThatUser() {
        issuer.signInAs("bob");
        UiSession bob = signedIn("bob");
        long produced = proxy.count("POST", TOPICS + "/t/records");

        HttpResponse<String> topics = bob.get("/api/topics");
        HttpResponse<String> produce = bob.send("POST", "/api/topics/t/messages", "{\"value\":\"hi\"}",
            bob.csrfToken());

        assertThat(topics.body()).contains("\"name\":\"t\"").doesNotContain("alice-only");
        assertThat(produce.statusCode()).isEqualTo(403);
        assertThat(produce.body()).contains("bob").contains("WRITE");
        assertThat(proxy.count("POST", TOPICS + "/t/records")).isEqualTo(produced);
    }

    @Test
    void expiredAccessTokenIsRefreshedAndTheNewOneForwarded(CapturedOutput output) {
        // A token that lives 1 s is due for refresh at once (refreshed within a minute of expiry).
        issuer.accessTokenLifetime(Duration.ofSeconds(1));
        UiSession alice = signedIn("alice");
        Issued login = last();
        int before = proxy.received().size();

        HttpResponse<String> topics = alice.get("/api/topics");

        assertThat(topics.statusCode()).isEqualTo(200);
        List<Issued> refreshed = issuer.issued().stream().filter(i -> i.grant().equals("refresh_token")
            && issuer.issued().indexOf(i) > issuer.issued().indexOf(login)).toList();
        assertThat(refreshed).isNotEmpty();
        Received call = proxy.received().subList(before, proxy.received().size()).stream()
            .filter(r -> r.path().equals(TOPICS)).findFirst().orElseThrow();
        assertThat(call.authorization()).isNotEqualTo("Bearer " + login.accessToken())
            .isIn(refreshed.stream().map(i -> "Bearer " + i.accessToken()).toList());
        assertNoTokenIn(output);
    }

    @Test
    void tokenThatCannotBeRefreshedEndsTheSession() {
        issuer.accessTokenLifetime(Duration.ofSeconds(1)).refusesRefresh(true);
        UiSession alice = signedIn("alice");
        int before = proxy.received().size();

        HttpResponse<String> api = alice.get("/api/topics");
        HttpResponse<String> page = alice.get("/");

        assertThat(api.statusCode()).isEqualTo(401);
        assertThat(api.body()).contains("\"status\":401");
        assertThat(page.statusCode()).isEqualTo(302);
        assertThat(page.headers().firstValue("Location")).hasValueSatisfying(
            location -> assertThat(location).endsWith("/login"));
        assertThat(proxy.received().subList(before, proxy.received().size())).isEmpty();
    }

    @Test
    void expiredTokenWithoutRefreshTokenEndsTheSession() {
        issuer.accessTokenLifetime(Duration.ofSeconds(1)).givesRefreshTokens(false);
        UiSession alice = signedIn("alice");
        clock.advance(Duration.ofSeconds(2)); // past the token's expiry, by the UI's clock

        assertThat(alice.get("/api/topics").statusCode()).isEqualTo(401);
    }

    /** With provider-sign-out on (this UI's setting): the provider's session ends too. */
    @Test
    void signOutEndsTheSessionHereAndAtTheProvider() {
        UiSession alice = signedIn("alice");
        Issued login = last();
        assertThat(alice.get("/api/topics").statusCode()).isEqualTo(200);
        int before = issuer.signOuts().size();

        HttpResponse<String> out = alice.send("POST", "/logout", null, alice.csrfToken());

        assertThat(out.statusCode()).isEqualTo(302);
        assertThat(out.headers().firstValue("Location")).hasValueSatisfying(
            location -> assertThat(location).startsWith(issuer.issuer() + "/logout?")
                .doesNotContain(login.accessToken()));
        HttpResponse<String> back = alice.get(out.headers().firstValue("Location").orElseThrow());
        assertThat(issuer.signOuts()).hasSize(before + 1);
        assertThat(issuer.signOuts().get(before)).containsEntry("id_token_hint", login.idToken())
            .containsEntry("post_logout_redirect_uri", ui + "/login?signed-out");
        assertThat(back.headers().firstValue("Location")).hasValue(ui + "/login?signed-out");
        assertThat(alice.get("/api/topics").statusCode()).isEqualTo(401);
        assertThat(alice.get("/login?signed-out").body()).contains("You are signed out.");
    }

    @Test
    void eachSignInKeepsItsOwnTokenAndSignOutEndsOnlyItsOwn() {
        UiSession first = signedIn("alice");
        Issued firstLogin = last();
        UiSession second = signedIn("alice");
        Issued secondLogin = last();

        assertThat(topicsCallAuthorization(first)).isEqualTo("Bearer " + firstLogin.accessToken());
        assertThat(topicsCallAuthorization(second)).isEqualTo("Bearer " + secondLogin.accessToken());
        assertThat(second.send("POST", "/logout", null, second.csrfToken()).statusCode()).isEqualTo(302);

        assertThat(second.get("/api/topics").statusCode()).isEqualTo(401);
        assertThat(topicsCallAuthorization(first)).isEqualTo("Bearer " + firstLogin.accessToken());
    }

    /** The {@code Authorization} the proxy received for the topic list {@code session} asked the UI for. */
    private String topicsCallAuthorization(UiSession session) {
        int before = proxy.received().size();
        assertThat(session.get("/api/topics").statusCode()).isEqualTo(200);
        return proxy.received().subList(before, proxy.received().size()).stream()
            .filter(call -> call.path().equals(TOPICS)).findFirst().orElseThrow().authorization();
    }

    private UiSession signedIn(String user) {
        UiSession session = new UiSession(ui);
        HttpResponse<String> answer = session.signInWithOAuth2("stub");
        assertThat(answer.statusCode()).isEqualTo(302);
        assertThat(answer.headers().firstValue("Location")).hasValueSatisfying(
            location -> assertThat(location).doesNotContain("error"));
        assertThat(last().user()).isEqualTo(user);
        return session;
    }

    private Issued last() {
        List<Issued> issued = issuer.issued();
        return issued.get(issued.size() - 1);
    }

    private void assertNoTokenIn(CapturedOutput output) {
        assertThat(issuer.issued()).isNotEmpty().allSatisfy(issued -> {
            assertThat(output.getAll()).doesNotContain(issued.accessToken());
            if (issued.idToken() != null) {
                assertThat(output.getAll()).doesNotContain(issued.idToken());
            }
            if (issued.refreshToken() != null) {
                assertThat(output.getAll()).doesNotContain(issued.refreshToken());
            }
        });
    }

    /** The system clock, moved ahead by what a test adds (tokens are issued by the real time). */
    private static final class AheadClock extends Clock {

        private volatile Duration ahead = Duration.ZERO;

        void advance(Duration by) {
            ahead = ahead.plus(by);
        }

        void reset() {
            ahead = Duration.ZERO;
        }

        @Override
        public Instant instant() {
            return Instant.now().plus(ahead);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }
    }
}
