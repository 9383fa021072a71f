package io.tributary.adminui.testing;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A scenario of the browser test, run against the started cluster and UI it is given: the
 * browser, its wait, the UI's base URL, the brokers' bootstrap servers and where screenshots go.
 */
public abstract class BrowserSteps {

    protected final WebDriver browser;
    protected final WebDriverWait wait;
    protected final URI ui;
    protected final String bootstrap;
    protected final Path screenshots;

    protected BrowserSteps(WebDriver browser, WebDriverWait wait, URI ui, String bootstrap, Path screenshots) {
        this.browser = browser;
        this.wait = wait;
        this.ui = ui;
        this.bootstrap = bootstrap;
        this.screenshots = screenshots;
    }

    /** Runs the scenario; fails with an assertion error at the first step the page does not show. */
    public abstract void run() throws Exception;

    /** Creates a topic named {@code prefix} plus a unique suffix, replication factor 1; returns its name. */
    protected String createTopic(String prefix, int partitions) throws Exception {
        String topic = prefix + Long.toHexString(System.nanoTime());
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        return topic;
    }

    /** The trimmed text of the first element {@code css} selects. */
    protected String text(String css) {
        return readFresh(() -> browser.findElement(By.cssSelector(css)).getText().trim());
    }

    /**
     * Reads the page through {@code read}, again when the elements it found were replaced meanwhile (pages
     * that refresh on a timer replace their content between a find and a read): a few attempts, each
     * finding the elements anew.
     */
    protected static <T> T readFresh(Supplier<T> read) {
        for (int attempt = 1; ; attempt++) {
            try {
                return read.get();
            } catch (StaleElementReferenceException e) {
                if (attempt == 5) {
                    throw e;
                }
            }
        }
    }

    /** Replaces the value of the input with id {@code id} by {@code value}, as a user typing it. */
    protected void clearAndType(String id, String value) {
        WebElement input = browser.findElement(By.id(id));
        input.clear();
        input.sendKeys(value);
    }

    /** Saves what the browser shows as {@code <screenshots>/<name>.png}, replacing an older one. */
    protected void screenshot(String name) throws IOException {
        Path shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(shot, screenshots.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }
}
