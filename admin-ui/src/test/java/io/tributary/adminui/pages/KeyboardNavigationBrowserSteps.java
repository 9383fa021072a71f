package io.tributary.adminui.pages;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.testing.BrowserSteps;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The navigation by keyboard, run by {@code AdminUiBrowserIT}: from a fresh page the first Tab lands on
 * "Skip to content", whose Enter moves focus to the main area and leaves the page as it is; from the top
 * of a page Tab reaches each page's navigation link and Enter opens that page, marked as the current one;
 * no control of a page's main area lacks an accessible name. ({@link KeyboardBrowserSteps} tabs through
 * every control.)
 */
public final class KeyboardNavigationBrowserSteps extends BrowserSteps {

    /** Controls of the page's main area that have no accessible name (label, aria-label, labelledby, text, title). */
    private static final String UNLABELLED_CONTROLS = "return Array.from(document.querySelectorAll("
        + "'main input, main select, main textarea, main button')).filter(e => e.type !== 'hidden').filter(e => {"
        + " const labelledBy = e.getAttribute('aria-labelledby');"
        + " const name = (e.getAttribute('aria-label') || '').trim()"
        + "  || (e.labels && e.labels.length ? e.labels[0].textContent.trim() : '')"
        + "  || (labelledBy && document.getElementById(labelledBy) ? document.getElementById(labelledBy).textContent.trim() : '')"
        + "  || (e.tagName === 'BUTTON' ? e.textContent.trim() : '') || (e.getAttribute('title') || '').trim();"
        + " return !name; }).map(e => e.outerHTML.slice(0, 160));";

    public KeyboardNavigationBrowserSteps(WebDriver browser, WebDriverWait wait, URI ui, Path screenshots) {
        super(browser, wait, ui, null, screenshots);
    }

    @Override
    public void run() {
        browser.manage().window().setSize(new Dimension(1280, 900));
        JavascriptExecutor js = (JavascriptExecutor) browser;
        Actions keys = new Actions(browser);
        // From a fresh page, the first Tab lands on "Skip to content"; Enter moves focus to the main area.
        browser.get(ui.resolve("/?keyboard=0#/").toString());
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("overview-title")));
        keys.sendKeys(Keys.TAB).perform();
        assertThat(browser.switchTo().activeElement().getText()).isEqualTo("Skip to content");
        keys.sendKeys(Keys.ENTER).perform();
        wait.until(d -> "view".equals(((JavascriptExecutor) d).executeScript("return document.activeElement.id")));
        // The page stays: the skip link's #view is no route (it showed "Not found" instead of the overview).
        assertThat(browser.getCurrentUrl()).endsWith("#/");
        assertThat(browser.findElements(By.id("overview-title"))).as("the overview is still shown").hasSize(1);
        String[][] pages = {{"Topics", "topics-title", "#/topics"}, {"Consumer groups", "groups-title", "#/groups"},
            {"Share groups", "share-groups-title", "#/share-groups"},
            {"Transactions", "transactions-title", "#/transactions"}, {"Brokers", "brokers-title", "#/brokers"},
            {"Reassignments", "reassignments-title", "#/reassignments"}, {"Overview", "overview-title", "#/"}};
        for (int p = 0; p < pages.length; p++) {
            String[] page = pages[p];
            // Tab from the top of a freshly loaded page until the navigation link has focus, then follow it.
            browser.get(ui.resolve("/?keyboard=" + (p + 1) + "#/").toString());
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("overview-title")));
            for (int i = 0; i < 10 && !page[0].equals(browser.switchTo().activeElement().getText()); i++) {
                keys.sendKeys(Keys.TAB).perform();
            }
            assertThat(browser.switchTo().activeElement().getText()).as("Tab reaches the %s link", page[0])
                .isEqualTo(page[0]);
            keys.sendKeys(Keys.ENTER).perform();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id(page[1])));
            assertThat(browser.getCurrentUrl()).endsWith(page[2]);
            wait.until(d -> d.findElements(By.cssSelector("main .loading")).isEmpty());
            @SuppressWarnings("unchecked")
            List<String> unlabelled = (List<String>) js.executeScript(UNLABELLED_CONTROLS);
            assertThat(unlabelled).as("controls without an accessible name on %s", page[2]).isEmpty();
            assertThat(browser.findElements(By.cssSelector("nav[aria-label] a[aria-current='page']")))
                .as("the current page is marked in the navigation").hasSize(1);
        }
    }
}
