package io.tributary.adminui.security;

import static io.tributary.adminui.testing.ProxyJson.CLUSTER;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.AdminUiApplication;
import io.tributary.adminui.testing.ProxyJson;
import io.tributary.adminui.testing.StubRestProxy;
import io.tributary.adminui.testing.StubRestProxy.Received;
import io.tributary.adminui.testing.UiSession;
import jakarta.servlet.http.HttpSession;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.catalina.Context;
import org.apache.catalina.Session;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The UI with {@code admin-ui.authentication.method=basic} in front of a stub REST proxy that signs
 * callers in with HTTP Basic and answers each user as the brokers' ACLs would: sign-in checked with
 * the proxy, the session's user forwarded on every proxy call (pool threads and the live tail
 * included), 401 and redirects without a session, CSRF on changes, and the API refusing (403) what
 * the user's {@code authorized_operations} do not allow.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(OutputCaptureExtension.class)
class SignInApiTest {

    private static final String ALICE_PASSWORD = "alice-pw-Rt58";
    private static final String BOB_PASSWORD = "bob-pw-Hv13";
    private static final String TOPICS = "/v3/clusters/" + CLUSTER + "/topics";
    private static final String GROUPS = "/v3/clusters/" + CLUSTER + "/consumer-groups";
    private static final List<String> ALL_TOPIC_OPERATIONS = List.of("ALTER", "ALTER_CONFIGS", "CREATE", "DELETE",
        "DESCRIBE", "DESCRIBE_CONFIGS", "READ", "WRITE");
    private static final List<String> READ_ONLY = List.of("DESCRIBE", "READ");
    private static final String PRODUCE = "{\"value\":\"hello\"}";

    private StubRestProxy proxy;
    private ConfigurableApplicationContext app;
    private URI ui;

    @BeforeAll
    void start() throws Exception {
        proxy = new StubRestProxy().users(Map.of("alice", ALICE_PASSWORD, "bob", BOB_PASSWORD, "carol", "c:pw-Lm40"))
            .on("GET", "/v3/clusters", 200, ProxyJson.clusters(0))
            .onFor("alice", "GET", "/v3/clusters/" + CLUSTER, 200, ProxyJson.cluster(List.of("CREATE", "DESCRIBE")))
            .onFor("bob", "GET", "/v3/clusters/" + CLUSTER, 200, ProxyJson.cluster(List.of("DESCRIBE")))
            .onFor("alice", "GET", TOPICS, 200, ProxyJson.list(List.of(
                ProxyJson.topic("alice-only", 1, 1, ALL_TOPIC_OPERATIONS),
                ProxyJson.topic("t", 1, 1, ALL_TOPIC_OPERATIONS))))
            .onFor("bob", "GET", TOPICS, 200, ProxyJson.list(List.of(ProxyJson.topic("t", 1, 1, READ_ONLY))))
            .onFor("alice", "GET", TOPICS + "/t", 200, ProxyJson.topic("t", 1, 1, ALL_TOPIC_OPERATIONS))
            .onFor("bob", "GET", TOPICS + "/t", 200, ProxyJson.topic("t", 1, 1, READ_ONLY))
            .on("GET", "/topics/t/partitions", 200, ProxyJson.states(ProxyJson.state(0, 0, List.of(0), List.of(0))))
            .on("GET", "/topics/alice-only/partitions", 200,
                ProxyJson.states(ProxyJson.state(0, 0, List.of(0), List.of(0))))
            .on("POST", TOPICS + "/t/records", 200, "{\"error_code\":200,\"partition_id\":0,\"offset\":7}")
            .on("DELETE", TOPICS + "/t", 204, "")
            .on("GET", "/topics/t/records/stream", 200, ": ready\n\n")
            .on("GET", GROUPS, 200, ProxyJson.list(List.of("{\"consumer_group_id\":\"g\",\"is_simple\":false,\"partition_assignor\":\"range\",\"state\":\"STABLE\"}")))
            .on("GET", GROUPS + "/g/lag-summary", 200, "{\"kind\":\"KafkaConsumerGroupLagSummary\",\"max_lag\":3,\"total_lag\":5}")
            .on("GET", GROUPS + "/g/consumers", 200, ProxyJson.list(List.of()))
            .on("GET", TOPICS + "/t/partitions", 200, ProxyJson.list(List.of("{\"partition_id\":0,\"leader_id\":0,"
                + "\"replica_ids\":[0],\"isr_ids\":[0],\"earliest_offset\":0,\"latest_offset\":3}")))
            .onFor("alice", "GET", TOPICS + "/t/configs", 200, ProxyJson.list(List.of("{\"name\":\"retention.ms\","
                + "\"value\":\"1000\",\"is_default\":false,\"is_read_only\":false,\"is_sensitive\":false,"
                + "\"source\":\"DYNAMIC_TOPIC_CONFIG\"}")))
            .onFor("bob", "GET", TOPICS + "/t/configs", 403, "{\"error_code\":40301,\"message\":"
                + "\"TopicAuthorizationException: Not authorized to access topics: [t]\"}");
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
    void withoutSessionApiAnswers401JsonAndPagesRedirectToSignIn() {
        UiSession browser = new UiSession(ui);

        HttpResponse<String> api = browser.get("/api/topics");
        assertThat(api.statusCode()).isEqualTo(401);
        assertThat(api.headers().firstValue("Content-Type")).hasValueSatisfying(
            type -> assertThat(type).startsWith("application/json"));
        assertThat(api.body()).contains("\"status\":401").contains("Sign in");
        HttpResponse<String> page = browser.get("/");
        assertThat(page.statusCode()).isEqualTo(302);
        assertThat(page.headers().firstValue("Location")).hasValueSatisfying(
            location -> assertThat(location).endsWith("/login"));
        assertThat(browser.get("/actuator/health/liveness").statusCode()).isEqualTo(200);
        assertThat(browser.get("/login").body()).contains("id=\"login-form\"");
    }

    @Test
    void wrongPasswordIsRefusedWithAMessage(CapturedOutput output) {
        UiSession browser = new UiSession(ui);

        HttpResponse<String> refused = browser.signIn("alice", "not-" + ALICE_PASSWORD);

        assertThat(refused.statusCode()).isEqualTo(302);
        assertThat(refused.headers().firstValue("Location")).hasValueSatisfying(
            location -> assertThat(location).endsWith("/login?error"));
        assertThat(browser.get("/login?error").body()).contains("Wrong user name or password.");
        assertThat(browser.get("/api/session").statusCode()).isEqualTo(401);
        assertThat(output.getAll()).doesNotContain("not-" + ALICE_PASSWORD);
    }

    @Test
    void signedInUserIsForwardedToTheProxyOnEveryCall(CapturedOutput output) {
        UiSession alice = signedIn("alice", ALICE_PASSWORD);
        int before = proxy.received().size();

        HttpResponse<String> topics = alice.get("/api/topics");
        HttpResponse<String> tail = alice.get("/api/topics/t/messages/stream");

        assertThat(topics.statusCode()).isEqualTo(200);
        assertThat(topics.body()).contains("\"name\":\"alice-only\"").contains("\"name\":\"t\"");
        assertThat(tail.statusCode()).isEqualTo(200);
        List<Received> calls = proxy.received().subList(before, proxy.received().size());
        // The list, the partition states looked up on the pool's threads, and the live tail's stream.
        assertThat(calls).extracting(Received::path).contains(TOPICS, "/topics/t/partitions",
            "/topics/alice-only/partitions", "/topics/t/records/stream");
        assertThat(calls).allSatisfy(call -> assertThat(call.authorization())
            .as(call.method() + " " + call.path()).isEqualTo(basic("alice", ALICE_PASSWORD)));
        HttpResponse<String> session = alice.get("/api/session");
        assertThat(session.body()).contains("\"username\":\"alice\"").contains("\"token\":")
            .contains("CREATE").doesNotContain(ALICE_PASSWORD).doesNotContain(basic("alice", ALICE_PASSWORD));
        assertThat(output.getAll()).doesNotContain(ALICE_PASSWORD).doesNotContain(basic("alice", ALICE_PASSWORD));
    }

    @Test
    void signingInGivesANewSessionIdAndGoesHomeWhateverWasAskedFor() throws Exception {
        CookieManager cookies = new CookieManager();
        HttpClient http = HttpClient.newBuilder().cookieHandler(cookies).build();
        // A page asked for first (a sign-in must not send the user on to a URL someone else chose).
        http.send(HttpRequest.newBuilder(ui.resolve("/api/topics?next=https://evil.example/")).build(),
            HttpResponse.BodyHandlers.ofString());
        String page = http.send(HttpRequest.newBuilder(ui.resolve("/login")).build(),
            HttpResponse.BodyHandlers.ofString()).body();
        String before = sessionId(cookies);
        Matcher csrf = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"")
            .matcher(page);
        assertThat(csrf.find()).isTrue();

        HttpResponse<String> signIn = http.send(HttpRequest.newBuilder(ui.resolve("/login"))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString("username=alice&password=" + ALICE_PASSWORD + "&_csrf="
                + csrf.group(1))).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(before).isNotNull();
        assertThat(signIn.statusCode()).isEqualTo(302);
        assertThat(signIn.headers().firstValue("Location")).hasValueSatisfying(
            location -> assertThat(URI.create(location).getPath()).isEqualTo("/"));
        assertThat(sessionId(cookies)).isNotNull().isNotEqualTo(before);
    }

    private static String sessionId(CookieManager cookies) {
        return cookies.getCookieStore().getCookies().stream().filter(c -> c.getName().equals("JSESSIONID"))
            .map(HttpCookie::getValue).findFirst().orElse(null);
    }

    @Test
    void aUserNameWithAColonSignsNoOneIn() {
        // HTTP Basic splits at the first colon: the proxy would take this for carol with password "c:pw-Lm40",
        // while the UI named the session (and its logs) "carol:c".
        UiSession browser = new UiSession(ui);

        HttpResponse<String> answer = browser.signIn("carol:c", "pw-Lm40");

        assertThat(answer.headers().firstValue("Location")).hasValueSatisfying(
            location -> assertThat(location).endsWith("/login?error"));
        assertThat(browser.get("/api/session").statusCode()).isEqualTo(401);
        assertThat(signedIn("carol", "c:pw-Lm40").get("/api/session").body()).contains("\"username\":\"carol\"");
    }

    @Test
    void noSessionKeepsATypedPassword() throws Exception {
        String typed = "not-" + ALICE_PASSWORD + "-Qz7";
        UiSession refused = new UiSession(ui);
        UiSession signedIn = signedIn("bob", BOB_PASSWORD);

        refused.signIn("alice", typed);

        // The refusal's message is still shown, from the session.
        assertThat(refused.get("/login?error").body()).contains("Wrong user name or password.");
        assertThat(signedIn.get("/api/session").statusCode()).isEqualTo(200);
        // What a session store (or a restart's persisted sessions) would write holds neither password.
        for (String serialized : serializedSessions()) {
            assertThat(serialized).doesNotContain(typed).doesNotContain(BOB_PASSWORD);
        }
    }

    /** Each session's serializable attributes as Java serialization writes them, read as Latin-1. */
    private List<String> serializedSessions() throws IOException {
        TomcatWebServer server = (TomcatWebServer) ((WebServerApplicationContext) app).getWebServer();
        Context context = (Context) server.getTomcat().getHost().findChildren()[0];
        List<String> serialized = new ArrayList<>();
        for (Session session : context.getManager().findSessions()) {
            HttpSession http = session.getSession();
            for (String name : Collections.list(http.getAttributeNames())) {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                    out.writeObject(http.getAttribute(name));
                } catch (NotSerializableException notWrittenBySessionStores) {
                    continue;
                }
                serialized.add(name + "=" + bytes.toString(StandardCharsets.ISO_8859_1));
            }
        }
        assertThat(serialized).anySatisfy(attribute -> assertThat(attribute).startsWith("SPRING_SECURITY_LAST_EXCEPTION="));
        return serialized;
    }

    @Test
    void groupLagsAreAskedAsTheSignedInUserToo() {
        UiSession alice = signedIn("alice", ALICE_PASSWORD);
        int before = proxy.received().size();

        HttpResponse<String> groups = alice.get("/api/groups");

        assertThat(groups.statusCode()).as(groups.body()).isEqualTo(200);
        assertThat(groups.body()).contains("\"totalLag\":5").contains("\"members\":0");
        List<Received> calls = proxy.received().subList(before, proxy.received().size());
        // The lag summaries and member lists are looked up on the pool's threads.
        assertThat(calls).extracting(Received::path).contains(GROUPS, GROUPS + "/g/lag-summary", GROUPS + "/g/consumers");
        assertThat(calls).allSatisfy(call -> assertThat(call.authorization())
            .as(call.method() + " " + call.path()).isEqualTo(basic("alice", ALICE_PASSWORD)));
    }

    @Test
    void eachUserSeesTheTopicsTheProxyListsForThem() {
        HttpResponse<String> asBob = signedIn("bob", BOB_PASSWORD).get("/api/topics");

        assertThat(asBob.statusCode()).isEqualTo(200);
        assertThat(asBob.body()).contains("\"name\":\"t\"").doesNotContain("alice-only")
            .contains("\"operations\":[\"DESCRIBE\",\"READ\"]");
    }

    @Test
    void topicWhoseConfigsTheUserMayNotSeeComesWithoutThem() {
        HttpResponse<String> asBob = signedIn("bob", BOB_PASSWORD).get("/api/topics/t");
        HttpResponse<String> asAlice = signedIn("alice", ALICE_PASSWORD).get("/api/topics/t");

        assertThat(asBob.statusCode()).isEqualTo(200);
        assertThat(asBob.body()).contains("\"partitions\":[{").contains("\"configs\":null");
        assertThat(asAlice.statusCode()).isEqualTo(200);
        assertThat(asAlice.body()).contains("retention.ms");
    }

    @Test
    void changesNeedTheSessionsCsrfToken() {
        UiSession alice = signedIn("alice", ALICE_PASSWORD);
        long deletes = proxy.count("DELETE", TOPICS + "/t");

        HttpResponse<String> withoutToken = alice.send("DELETE", "/api/topics/t", null, null);
        HttpResponse<String> wrongToken = alice.send("POST", "/api/topics/t/messages", PRODUCE, "forged");

        assertThat(withoutToken.statusCode()).isEqualTo(403);
        assertThat(withoutToken.body()).contains("CSRF");
        assertThat(wrongToken.statusCode()).isEqualTo(403);
        assertThat(proxy.count("DELETE", TOPICS + "/t")).isEqualTo(deletes);
        assertThat(alice.send("DELETE", "/api/topics/t", null, alice.csrfToken()).statusCode()).isEqualTo(204);
        assertThat(proxy.count("DELETE", TOPICS + "/t")).isEqualTo(deletes + 1);
    }

    @Test
    void userWithoutWriteMayNotProduceNorDelete() {
        UiSession bob = signedIn("bob", BOB_PASSWORD);
        String token = bob.csrfToken();
        long produced = proxy.count("POST", TOPICS + "/t/records");
        long deletes = proxy.count("DELETE", TOPICS + "/t");

        HttpResponse<String> produce = bob.send("POST", "/api/topics/t/messages", PRODUCE, token);
        HttpResponse<String> delete = bob.send("DELETE", "/api/topics/t", null, token);
        HttpResponse<String> create = bob.send("POST", "/api/topics", "{\"name\":\"new-one\"}", token);
        HttpResponse<String> rights = bob.get("/api/topics/t/rights");

        assertThat(produce.statusCode()).isEqualTo(403);
        assertThat(produce.body()).contains("bob").contains("WRITE");
        assertThat(delete.statusCode()).isEqualTo(403);
        assertThat(create.statusCode()).isEqualTo(403);
        assertThat(create.body()).contains("CREATE");
        assertThat(proxy.count("POST", TOPICS + "/t/records")).isEqualTo(produced);
        assertThat(proxy.count("DELETE", TOPICS + "/t")).isEqualTo(deletes);
        assertThat(proxy.count("POST", TOPICS)).isZero();
        assertThat(rights.body()).contains("\"operations\":[\"DESCRIBE\",\"READ\"]");

        HttpResponse<String> asAlice = signedIn("alice", ALICE_PASSWORD).send("POST", "/api/topics/t/messages",
            PRODUCE, null);
        assertThat(asAlice.statusCode()).as("no token: refused before rights are looked at").isEqualTo(403);
        UiSession alice = signedIn("alice", ALICE_PASSWORD);
        assertThat(alice.send("POST", "/api/topics/t/messages", PRODUCE, alice.csrfToken()).statusCode())
            .isEqualTo(201);
    }

    @Test
    void signOutEndsTheSession() {
        UiSession alice = signedIn("alice", ALICE_PASSWORD);

        HttpResponse<String> out = alice.send("POST", "/logout", null, alice.csrfToken());

        assertThat(out.statusCode()).isEqualTo(302);
        assertThat(out.headers().firstValue("Location")).hasValueSatisfying(
            location -> assertThat(location).endsWith("/login?signed-out"));
        assertThat(alice.get("/api/topics").statusCode()).isEqualTo(401);
    }

    private UiSession signedIn(String user, String password) {
        UiSession session = new UiSession(ui);
        HttpResponse<String> answer = session.signIn(user, password);
        assertThat(answer.statusCode()).isEqualTo(302);
        assertThat(answer.headers().firstValue("Location")).hasValueSatisfying(
            location -> assertThat(location).doesNotContain("error"));
        return session;
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
