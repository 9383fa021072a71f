package io.tributary.adminui.pages;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.testing.BrowserSteps;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Every page at 1280×800 and at a phone's 390×844: no page-wide horizontal scroll (wide tables
 * scroll in their own region); at phone width the navigation is behind a Menu button that opens by
 * keyboard and reaches every page. The Theme control overrides the system's scheme and is remembered.
 * Writes one screenshot a page (and the overview dark and on a phone) into {@code docsScreenshots},
 * which the build points at {@code docs/screenshots}: docs/admin-ui.md shows them.
 */
public class PageTourBrowserSteps extends BrowserSteps {

    static final Dimension DESKTOP = new Dimension(1280, 800);
    static final Dimension PHONE = new Dimension(390, 844);
    private static final String NO_PAGE_SCROLL =
        "return document.documentElement.scrollWidth <= window.innerWidth";
    /** Tables of the main area wider than their box, and not inside a box that scrolls sideways. */
    private static final String TABLES_OUTSIDE_A_SCROLLING_BOX = """
        return Array.from(document.querySelectorAll('main table')).filter((t) => {
          for (let e = t.parentElement; e && e !== document.body; e = e.parentElement) {
            if (['auto', 'scroll'].includes(getComputedStyle(e).overflowX)) return false;
          }
          return t.getBoundingClientRect().width > document.documentElement.clientWidth;
        }).map((t) => t.id || t.getAttribute('aria-label') || t.outerHTML.slice(0, 80));""";

    private final Path docsScreenshots;

    public PageTourBrowserSteps(WebDriver browser, WebDriverWait wait, URI ui, String bootstrap, Path screenshots,
                                Path docsScreenshots) {
        super(browser, wait, ui, bootstrap, screenshots);
        this.docsScreenshots = docsScreenshots;
    }

    @Override
    public void run() throws Exception {
        TourData.ensure(bootstrap);
        Files.createDirectories(docsScreenshots);
        try {
            for (Dimension size : List.of(DESKTOP, PHONE)) {
                browser.manage().window().setSize(size);
                for (UiPage page : UiPage.ALL) {
                    open(page);
                    // The widths in the message are asked of the page only when the assertion fails.
                    assertThat((Boolean) js().executeScript(NO_PAGE_SCROLL))
                        .as(() -> String.format(
                            "%s at %dx%d: no page-wide horizontal scroll (scrollWidth %s, innerWidth %s)",
                            page.route(), size.width, size.height,
                            js().executeScript("return document.documentElement.scrollWidth"),
                            js().executeScript("return window.innerWidth")))
                        .isTrue();
                    assertThat((List<?>) js().executeScript(TABLES_OUTSIDE_A_SCROLLING_BOX))
                        .as("%s at %dx%d: wide tables scroll in their own box", page.route(), size.width, size.height)
                        .isEmpty();
                    if (size.equals(DESKTOP)) {
                        assertThat(browser.findElement(By.id("nav-toggle")).isDisplayed())
                            .as("no Menu button on a wide screen").isFalse();
                        docsScreenshot(page.name());
                    }
                }
            }
            browser.manage().window().setSize(PHONE);
            open(UiPage.ALL.get(0));
            docsScreenshot("overview-phone");
            menuReachesEveryPageByKeyboard();
            browser.manage().window().setSize(DESKTOP);
            themeControlOverridesTheSystemAndIsRemembered();
        } finally {
            js().executeScript("localStorage.removeItem('tributary.theme')");
            ((ChromeDriver) browser).executeCdpCommand("Emulation.setEmulatedMedia", Map.of("features", List.of()));
            browser.manage().window().setSize(new Dimension(1280, 900));
        }
    }

    /** At phone width: Tab to Menu, Enter opens it, Tab to the n-th link, Enter goes there and closes the menu. */
    private void menuReachesEveryPageByKeyboard() throws IOException {
        // The security pages' links show only to users allowed to read them: count the links once they are decided.
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#main-nav[data-access='checked']")));
        List<WebElement> links = browser.findElements(By.cssSelector("#main-nav li:not([hidden]) a"));
        assertThat(links).isNotEmpty();
        assertThat(links.get(0).isDisplayed()).as("the navigation is folded at phone width").isFalse();
        int count = links.size();
        for (int n = 0; n < count; n++) {
            browser.get(ui.resolve("/?menu=" + n + "#/").toString());
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("overview-title")));
            wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#main-nav[data-access='checked']")));
            tabUntil("nav-toggle", 5);
            WebElement toggle = browser.switchTo().activeElement();
            assertThat(toggle.getAttribute("aria-expanded")).isEqualTo("false");
            keys().sendKeys(Keys.ENTER).perform();
            wait.until(ExpectedConditions.attributeToBe(By.id("nav-toggle"), "aria-expanded", "true"));
            WebElement link = browser.findElements(By.cssSelector("#main-nav li:not([hidden]) a")).get(n);
            wait.until(ExpectedConditions.visibilityOf(link));
            if (n == 0) {
                docsScreenshot("menu-phone");
            }
            String href = link.getAttribute("href");
            Actions tabs = keys();
            for (int i = 0; i <= n; i++) {
                tabs.sendKeys(Keys.TAB);
            }
            tabs.perform();
            assertThat(browser.switchTo().activeElement()).as("Tab %d times from Menu reaches link %d", n + 1, n)
                .isEqualTo(link);
            keys().sendKeys(Keys.ENTER).perform();
            wait.until(d -> d.getCurrentUrl().equals(href));
            wait.until(ExpectedConditions.attributeToBe(By.id("nav-toggle"), "aria-expanded", "false"));
            assertThat(browser.findElement(By.cssSelector("#main-nav a")).isDisplayed())
                .as("the menu closes after following a link").isFalse();
        }
        // Escape closes an open menu and gives focus back to its button.
        browser.get(ui.resolve("/?menu=escape#/").toString());
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("overview-title")));
        tabUntil("nav-toggle", 5);
        keys().sendKeys(Keys.ENTER).perform();
        wait.until(ExpectedConditions.attributeToBe(By.id("nav-toggle"), "aria-expanded", "true"));
        keys().sendKeys(Keys.TAB).sendKeys(Keys.ESCAPE).perform();
        wait.until(ExpectedConditions.attributeToBe(By.id("nav-toggle"), "aria-expanded", "false"));
        assertThat(browser.switchTo().activeElement().getAttribute("id")).isEqualTo("nav-toggle");
    }

    /**
     * With the system dark, "Light" paints light; "Dark" paints dark and stays after a reload; "System"
     * follows the system again. The overview's dark screenshot is taken on the way.
     */
    private void themeControlOverridesTheSystemAndIsRemembered() throws IOException {
        UiPage overview = UiPage.ALL.get(0);
        ((ChromeDriver) browser).executeCdpCommand("Emulation.setEmulatedMedia",
            Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", "dark"))));
        open(overview);
        String dark = background();
        theme().selectByValue("light");
        wait.until(d -> !background().equals(dark));
        String light = background();
        assertThat(js().executeScript("return document.documentElement.dataset.theme")).isEqualTo("light");

        // Back to the system's (dark) scheme; then the Dark choice with the system light.
        theme().selectByValue("system");
        wait.until(d -> background().equals(dark));
        ((ChromeDriver) browser).executeCdpCommand("Emulation.setEmulatedMedia", Map.of("features", List.of()));
        wait.until(d -> background().equals(light));
        theme().selectByValue("dark");
        wait.until(d -> background().equals(dark));
        browser.navigate().refresh();
        open(overview);
        assertThat(background()).as("the choice is remembered across loads").isEqualTo(dark);
        assertThat(theme().getFirstSelectedOption().getAttribute("value")).isEqualTo("dark");
        docsScreenshot("overview-dark");
        theme().selectByValue("system");
        wait.until(d -> background().equals(light));
        assertThat(js().executeScript("return localStorage.getItem('tributary.theme')")).isNull();
    }

    private Select theme() {
        return new Select(browser.findElement(By.id("theme")));
    }

    private String background() {
        return (String) js().executeScript("return getComputedStyle(document.body).backgroundColor");
    }

    /** Loads the page and waits until its content is there; a page that does not come is photographed. */
    private void open(UiPage page) throws IOException {
        try {
            page.open(browser, wait, ui);
        } catch (RuntimeException e) {
            Path shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
            Files.copy(shot, screenshots.resolve("tour-not-loaded-" + page.name() + ".png"),
                StandardCopyOption.REPLACE_EXISTING);
            throw e;
        }
    }

    private void tabUntil(String id, int most) {
        for (int i = 0; i < most && !id.equals(browser.switchTo().activeElement().getAttribute("id")); i++) {
            keys().sendKeys(Keys.TAB).perform();
        }
        assertThat(browser.switchTo().activeElement().getAttribute("id")).as("Tab reaches #%s", id).isEqualTo(id);
    }

    private void docsScreenshot(String name) throws IOException {
        Path shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(shot, docsScreenshots.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    private JavascriptExecutor js() {
        return (JavascriptExecutor) browser;
    }

    private Actions keys() {
        return new Actions(browser);
    }
}
