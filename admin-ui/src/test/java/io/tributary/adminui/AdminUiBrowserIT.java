package io.tributary.adminui;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.access.SecurityPagesBrowserSteps;
import io.tributary.adminui.brokers.BrokerRightsBrowserSteps;
import io.tributary.adminui.brokers.BrokersBrowserSteps;
import io.tributary.adminui.cluster.BrokerStatusBrowserSteps;
import io.tributary.adminui.groups.GroupLagResetBrowserSteps;
import io.tributary.adminui.groups.GroupMonitoringBrowserSteps;
import io.tributary.adminui.health.HealthComponentsTest;
import io.tributary.adminui.messages.MessageFilterBrowserSteps;
import io.tributary.adminui.messages.MessagePagingBrowserSteps;
import io.tributary.adminui.messages.MessageSearchCancelBrowserSteps;
import io.tributary.adminui.messages.MessagesBrowserSteps;
import io.tributary.adminui.messages.ProduceDisabledBrowserSteps;
import io.tributary.adminui.pages.KeyboardBrowserSteps;
import io.tributary.adminui.pages.KeyboardNavigationBrowserSteps;
import io.tributary.adminui.pages.PageTourBrowserSteps;
import io.tributary.adminui.proxy.ProxyWaitBrowserSteps;
import io.tributary.adminui.proxy.RestProxyLocator;
import io.tributary.adminui.reassignments.ReassignmentBrowserSteps;
import io.tributary.adminui.security.OAuth2SignInBrowserSteps;
import io.tributary.adminui.security.SignInBrowserSteps;
import io.tributary.adminui.sharegroups.ShareGroupsBrowserSteps;
import io.tributary.adminui.testing.BackgroundStart;
import io.tributary.adminui.testing.ClusterProcesses;
import io.tributary.adminui.testing.RestProxyCalls;
import io.tributary.adminui.testing.StubRestProxy;
import io.tributary.adminui.throughput.ThroughputBrowserSteps;
import io.tributary.adminui.topics.TopicEditBrowserSteps;
import io.tributary.adminui.topics.TopicLifecycleBrowserSteps;
import io.tributary.adminui.topics.TopicsListBrowserSteps;
import io.tributary.adminui.transactions.TransactionsBrowserSteps;
import io.tributary.testing.TestPorts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.json.JsonMapper;

/**
 * The admin UI end to end: real brokers and REST proxies (their packaged jars, own JVMs), UIs in this
 * JVM, and one headless Chromium driven by Selenium. Each test runs the scenario of a {@code *BrowserSteps}
 * class, which says what it checks.
 *
 * <p>Processes, started once for all tests (on 2 cores they cost most of the run): a one-broker
 * cluster with a UI that finds its proxy in ZooKeeper, used by most tests; a secured cluster
 * ({@link ClusterProcesses#startSecured()}) with a UI that signs users in, shared by the sign-in and the
 * security pages' tests (their users and ACLs do not overlap); a two-broker cluster for the
 * reassignment test. The latter two start in the background, one after the other, while the tests on
 * the first run; the tests on them run last ({@link #LATE}). A second UI on the first cluster has producing
 * turned off and its broker's metrics out of reach. Some tests start a UI of their own in this JVM (a proxy
 * not up yet, stub proxies, OAuth2 sign-in) and close it at their end.
 *
 * <p>Screenshots of each step go to {@code screenshots.dir} (target/screenshots); one of each page, for
 * the docs, to {@code docs.screenshots.dir} (docs/screenshots, see {@link PageTourBrowserSteps}).
 * Needs {@code /usr/bin/chromium} and {@code /usr/bin/chromedriver} (Debian {@code chromium},
 * {@code chromium-driver}); without them it fails, it does not skip.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AdminUiBrowserIT {

    /** After every test without an order: the tests whose clusters start in the background. */
    private static final int LATE = Order.DEFAULT + 1;

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Duration WAIT = Duration.ofSeconds(30);

    private BackgroundStart<ClusterProcesses> securedCluster;
    private BackgroundStart<ClusterProcesses> twoBrokers;
    private ClusterProcesses cluster;
    private ConfigurableApplicationContext app;
    private ConfigurableApplicationContext securedApp;
    private ConfigurableApplicationContext restrictedApp;
    private CompletableFuture<WebDriver> chromium;
    private WebDriver browser;
    private WebDriverWait wait;
    private URI ui;
    private Path screenshots;

    @BeforeAll
    void start() throws Exception {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            throw new AssertionError("AdminUiBrowserIT needs " + CHROMIUM + " and " + CHROMEDRIVER
                + ": apt-get install -y chromium chromium-driver (.ci/run does this)");
        }
        screenshots = Path.of(System.getProperty("screenshots.dir", "target/screenshots"));
        Files.createDirectories(screenshots);
        // Chromium starts while the cluster does.
        chromium = new CompletableFuture<>();
        Thread chromiumStart = new Thread(() -> {
            try {
                chromium.complete(startChromium());
            } catch (Throwable e) {
                chromium.completeExceptionally(e);
            }
        }, "chromium start");
        chromiumStart.start();
        cluster = ClusterProcesses.start();
        app = SpringApplication.run(AdminUiApplication.class, "--server.port=0", "--server.address=127.0.0.1",
            // No proxy URL: the UI finds the proxy registered in the cluster's ZooKeeper.
            "--admin-ui.zookeeper-connect=" + cluster.zookeeperConnect(),
            "--admin-ui.broker-metrics-port=" + cluster.brokerHttpPort(), "--admin-ui.metrics-interval=1s");
        ui = urlOf(app);

        browser = chromium.join();
        wait = new WebDriverWait(browser, WAIT);

        // Started one after the other while the tests on the first cluster run; the tests on them run last.
        securedCluster = BackgroundStart.begin("secured cluster", () -> {
            ClusterProcesses secured = ClusterProcesses.startSecured();
            try {
                SignInBrowserSteps.grant(secured.bootstrapServers());
                SecurityPagesBrowserSteps.grant(secured.bootstrapServers());
            } catch (Exception | AssertionError e) {
                secured.close();
                throw e;
            }
            return secured;
        });
        twoBrokers = securedCluster.then("two-broker cluster", ClusterProcesses::startTwoBrokers);
    }

    private static WebDriver startChromium() throws IOException {
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toString());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
            "--window-size=1280,900", "--user-data-dir=" + Files.createTempDirectory("admin-ui-chromium"));
        return new ChromeDriver(options);
    }

    @AfterAll
    void stop() throws Exception {
        if (chromium != null) {
            WebDriver started = chromium.handle((driver, failure) -> driver).join();
            if (started != null) {
                started.quit();
            }
        }
        for (AutoCloseable ui : new AutoCloseable[] {securedApp, restrictedApp, app}) {
            if (ui != null) {
                ui.close();
            }
        }
        closeTogether(cluster, securedCluster, twoBrokers);
    }

    /**
     * Closes each on a thread of its own (a cluster's processes take seconds to stop); fails with the first
     * failure.
     */
    private static void closeTogether(AutoCloseable... all) throws Exception {
        List<Thread> threads = new ArrayList<>();
        List<Exception> failures = new CopyOnWriteArrayList<>();
        for (AutoCloseable closeable : all) {
            if (closeable == null) {
                continue;
            }
            Thread thread = new Thread(() -> {
                try {
                    closeable.close();
                } catch (Exception e) {
                    failures.add(e);
                }
            }, "close " + closeable);
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
    }

    /** A UI in this JVM on {@code --server.port=0} with these settings; the caller closes it. */
    private static ConfigurableApplicationContext startUi(String... settings) {
        String[] args = new String[settings.length + 2];
        args[0] = "--server.port=0";
        args[1] = "--server.address=127.0.0.1";
        System.arraycopy(settings, 0, args, 2, settings.length);
        return SpringApplication.run(AdminUiApplication.class, args);
    }

    private static URI urlOf(ConfigurableApplicationContext ui) {
        return URI.create("http://127.0.0.1:" + ((WebServerApplicationContext) ui).getWebServer().getPort());
    }

    /** The UI on the secured cluster, signing users in; started by the first test that asks. */
    private URI securedUi() {
        if (securedApp == null) {
            ClusterProcesses secured = securedCluster.get();
            securedApp = startUi("--admin-ui.rest-proxy-url=" + secured.restProxyUrl(),
                "--admin-ui.authentication.method=basic", "--admin-ui.broker-metrics-port=" + secured.brokerHttpPort());
        }
        return urlOf(securedApp);
    }

    /**
     * A second UI on the first cluster, with producing turned off and its broker's metrics URL pointing where
     * nothing listens; started by the first test that asks.
     */
    private URI restrictedUi() {
        if (restrictedApp == null) {
            restrictedApp = startUi("--admin-ui.zookeeper-connect=" + cluster.zookeeperConnect(),
                "--admin-ui.produce-enabled=false",
                "--admin-ui.broker-metrics-urls.0=http://127.0.0.1:" + TestPorts.freePort() + "/actuator/prometheus");
        }
        return urlOf(restrictedApp);
    }

    @Test
    void overviewCreateFilterOpenAndDeleteATopic() throws Exception {
        new TopicLifecycleBrowserSteps(browser, wait, ui, cluster.bootstrapServers(), screenshots,
            cluster.restProxyUrl()).run();
    }

    @Test
    void consumerGroupLagResetConsumeAndDelete() throws Exception {
        new GroupLagResetBrowserSteps(browser, wait, ui, cluster.bootstrapServers(), screenshots,
            cluster.restProxyUrl()).run();
    }

    @Test
    void overviewThroughputChartShowsProducedMessages() throws Exception {
        new ThroughputBrowserSteps(browser, wait, ui, cluster.bootstrapServers(), screenshots).run();
    }

    @Test
    void produceBrowseSearchAndTailMessages() throws Exception {
        new MessagesBrowserSteps(browser, wait, ui, cluster.bootstrapServers(), screenshots).run();
    }

    @Test
    void pageThroughMessagesWithOlderAndNewerAndStartAtATimestamp() throws Exception {
        new MessagePagingBrowserSteps(browser, wait, ui, cluster.bootstrapServers(), screenshots).run();
    }

    @Test
    void filterMessagesByAnExpressionExpandARowAndExportTheShownRows() throws Exception {
        new MessageFilterBrowserSteps(browser, wait, ui, cluster.bootstrapServers(), screenshots).run();
    }

    @Test
    void cancelAMessageSearchAndSearchAgain() throws Exception {
        new MessageSearchCancelBrowserSteps(browser, wait, ui, cluster.bootstrapServers(), screenshots).run();
    }

    @Test
    void withProduceTurnedOffTheMessageBrowserHasNoProduceForm() throws Exception {
        new ProduceDisabledBrowserSteps(browser, wait, restrictedUi(), cluster.bootstrapServers(), screenshots).run();
    }

    @Test
    void readCommittedMessagesAndAbortAnOpenTransaction() throws Exception {
        new TransactionsBrowserSteps(browser, wait, ui, cluster.bootstrapServers(), screenshots).run();
    }

    /** A second UI in this JVM on a stub proxy of a cluster with brokers down; closed at the end. */
    @Test
    void overviewListsBrokersThatAreDown() throws Exception {
        try (StubRestProxy degraded = BrokerStatusBrowserSteps.degradedCluster();
             ConfigurableApplicationContext degradedUi = startUi("--admin-ui.rest-proxy-url=" + degraded.url())) {
            new BrokerStatusBrowserSteps(browser, wait, urlOf(degradedUi), cluster.bootstrapServers(), screenshots)
                .run();
        }
    }

    /** A second UI in this JVM, started before its proxy (nothing listens at its URL yet); closed at the end. */
    @Test
    void aPageOpenedBeforeTheProxyIsUpWaitsAndLoadsOnceItAnswers() throws Exception {
        int proxyPort = TestPorts.freePort();
        try (ConfigurableApplicationContext early =
                 startUi("--admin-ui.rest-proxy-url=http://127.0.0.1:" + proxyPort)) {
            new ProxyWaitBrowserSteps(browser, wait, urlOf(early), proxyPort, screenshots).run();
        }
    }

    @Test
    void shareGroupMembersConfigsAndDelete() throws Exception {
        new ShareGroupsBrowserSteps(browser, wait, ui, cluster.bootstrapServers(), screenshots).run();
    }

    @Test
    void topicListTogglesInternalTopicsSortsShowsSizesAndDeletesSeveral() throws Exception {
        new TopicsListBrowserSteps(browser, wait, ui, cluster.bootstrapServers(), screenshots).run();
    }

    @Test
    void shareGroupMetricsOfAnUnreachableBrokerAreDashes() throws Exception {
        new ShareGroupsBrowserSteps(browser, wait, restrictedUi(), cluster.bootstrapServers(), screenshots)
            .metricsOfAnUnreachableBrokerAreDashes();
    }

    @Test
    void editTopicConfigsAddPartitionsAndSeeSizesOnDisk() throws Exception {
        new TopicEditBrowserSteps(browser, wait, ui, cluster.bootstrapServers(), screenshots).run();
    }

    @Test
    void brokersListConfigsWithSourcesAndLogDirs() throws Exception {
        new BrokersBrowserSteps(browser, wait, ui, cluster.bootstrapServers(), screenshots).run();
    }

    @Test
    void consumerGroupsFilterByStateAndTopicAndRefreshThemselves() throws Exception {
        new GroupMonitoringBrowserSteps(browser, wait, ui, cluster.bootstrapServers(), screenshots).run();
    }

    /** A UI of its own that signs users in, on a stub proxy; closed at the end. */
    @Test
    void brokerAndReassignmentControlsOnlyForWhomTheBrokersAllow() throws Exception {
        new BrokerRightsBrowserSteps(browser, wait).run();
    }

    @Test
    void theKeyboardReachesEveryPageAndEveryControlHasAName() {
        new KeyboardNavigationBrowserSteps(browser, wait, ui, screenshots).run();
    }

    /** Tab reaches every control of every page, each with an accessible name and a visible focus. */
    @Test
    void theKeyboardReachesEveryControlOfEveryPageWithANameAndAVisibleFocus() throws Exception {
        new KeyboardBrowserSteps(browser, wait, ui, cluster.bootstrapServers(), screenshots).run();
    }

    /** Every page at 1280×800 and 390×844, the Menu button, the Theme control; the docs' screenshots. */
    @Test
    void everyPageFitsAPhoneAndADesktopAndIsPhotographedForTheDocs() throws Exception {
        Path docsScreenshots = Path.of(System.getProperty("docs.screenshots.dir", "target/docs-screenshots"));
        new PageTourBrowserSteps(browser, wait, ui, cluster.bootstrapServers(), screenshots, docsScreenshots).run();
    }

    /** A UI of its own on OAuth2 sign-in, with a stub provider and a stub proxy (no cluster). */
    @Test
    void usersSignInWithOAuth2ThroughTheProvidersRedirect() throws Exception {
        new OAuth2SignInBrowserSteps(browser, wait, screenshots).run();
    }

    @Test
    void readinessIncludesTheRestProxyFoundInZooKeeperHealthHasNoUnknownAndPrometheusIsServed() throws Exception {
        HttpResponse<String> readiness = RestProxyCalls.get(ui.resolve("/actuator/health/readiness"));
        assertThat(readiness.statusCode()).isEqualTo(200);
        assertThat(readiness.body()).contains("\"restProxy\"").contains("\"UP\"");
        RestProxyLocator locator = app.getBean(RestProxyLocator.class);
        assertThat(locator.isDiscovered()).isTrue();
        assertThat(locator.current()).as("the proxy registered in ZooKeeper").isEqualTo(cluster.restProxyUrl());
        // With ZooKeeper discovery on: every health component UP (the zookeeper connection among them), none UNKNOWN.
        Map<String, String> health = HealthComponentsTest.statuses(JsonMapper.builder().build()
            .readTree(RestProxyCalls.get(ui.resolve("/actuator/health")).body()), "");
        assertThat(health).containsEntry("zookeeper", "UP").doesNotContainKey("discoveryComposite")
            .allSatisfy((name, status) -> assertThat(status).as(name).isEqualTo("UP"));
        HttpResponse<String> prometheus = RestProxyCalls.get(ui.resolve("/actuator/prometheus"));
        assertThat(prometheus.statusCode()).isEqualTo(200);
        assertThat(prometheus.body()).contains("jvm_memory_used_bytes");
    }

    @Test
    @Order(LATE)
    void reassignAPartitionToAnotherBroker() throws Exception {
        ReassignmentBrowserSteps.runOn(twoBrokers.get(), browser, wait, screenshots);
    }

    @Test
    @Order(LATE)
    void signedInUsersSeeOnlyWhatTheBrokersLetThemDo() throws Exception {
        new SignInBrowserSteps(browser, wait, securedUi(), securedCluster.get().bootstrapServers(), screenshots).run();
    }

    @Test
    @Order(LATE)
    void securityPagesManageAclsUsersAndQuotasForUsersAllowedOnly() throws Exception {
        new SecurityPagesBrowserSteps(browser, wait, securedUi(), securedCluster.get().bootstrapServers(),
            screenshots).run();
    }
}
