package io.tributary.adminui.pages;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.testing.BrowserSteps;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * On every page, Tab from the top reaches every visible interactive element (links, buttons, fields,
 * scrolling table regions; one radio button a group), and each element Tab lands on has an accessible
 * name and a visible focus style (an outline or a box shadow), read as it gets focus.
 */
public class KeyboardBrowserSteps extends BrowserSteps {

    /**
     * Marks the visible elements Tab should reach with data-kbd keys and answers the keys. A radio
     * group is one stop (arrow keys move within it), so its buttons share a key.
     */
    private static final String MARK = """
        const candidates = document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]');
        const keys = new Set();
        let n = 0;
        for (const e of candidates) {
          if (e.tabIndex < 0 || e.disabled || e.type === 'hidden' || e.getClientRects().length === 0
              || getComputedStyle(e).visibility === 'hidden' || e.closest('[inert], dialog:not([open])')) continue;
          e.dataset.kbd = e.type === 'radio' && e.name ? 'radio:' + e.name : 'e' + (n++);
          keys.add(e.dataset.kbd);
        }
        return Array.from(keys);""";

    /**
     * Starts a log of focus changes, read (and emptied) by {@link #FOCUS_LOG}: for each element focus moves
     * to, [its key, its accessible name, whether its focus shows, its HTML], taken as it gets focus.
     */
    private static final String RECORD_FOCUS = """
        window.kbdFocusLog = [];
        const text = (el) => (el ? (el.innerText || el.textContent || '').trim() : '');
        const byIds = (ids) => (ids || '').split(/\\s+/).map((id) => text(document.getElementById(id))).join(' ').trim();
        document.addEventListener('focusin', (event) => {
          const e = event.target;
          if (!e || e === document.body) return;
          const img = e.querySelector && e.querySelector('img[alt]');
          const name = (e.getAttribute('aria-labelledby') ? byIds(e.getAttribute('aria-labelledby')) : '')
            || (e.getAttribute('aria-label') || '').trim()
            || (e.labels && e.labels.length ? text(e.labels[0]) : '')
            || (['A', 'BUTTON', 'SUMMARY'].includes(e.tagName) ? text(e) : '')
            || (img ? img.alt.trim() : '')
            || (e.getAttribute('title') || '').trim();
          const style = getComputedStyle(e);
          const shows = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0)
            || (style.boxShadow && style.boxShadow !== 'none');
          window.kbdFocusLog.push([e.dataset.kbd || '', name, shows, e.outerHTML.slice(0, 160)]);
        }, true);""";

    /** The focus changes logged since the last read. */
    private static final String FOCUS_LOG = "return window.kbdFocusLog.splice(0)";

    public KeyboardBrowserSteps(WebDriver browser, WebDriverWait wait, URI ui, String bootstrap, Path screenshots) {
        super(browser, wait, ui, bootstrap, screenshots);
    }

    @Override
    public void run() throws Exception {
        TourData.ensure(bootstrap);
        browser.manage().window().setSize(new Dimension(1280, 800));
        try {
            for (UiPage page : UiPage.ALL) {
                tabThrough(page);
            }
        } finally {
            browser.manage().window().setSize(new Dimension(1280, 900));
        }
    }

    @SuppressWarnings("unchecked")
    private void tabThrough(UiPage page) {
        page.open(browser, wait, ui, "?keys=" + page.name());
        JavascriptExecutor js = (JavascriptExecutor) browser;
        Set<String> expected = new HashSet<>((List<String>) js.executeScript(MARK));
        Set<String> reached = new HashSet<>();
        List<String> unnamed = new ArrayList<>();
        List<String> noFocusStyle = new ArrayList<>();
        js.executeScript(RECORD_FOCUS);
        // As many Tabs as there are stops in one go (one round trip, not two a Tab), then one at a time, at
        // most 10 more, until every stop was reached.
        int most = expected.size() + 10;
        for (int sent = 0, batch = expected.size(); sent < most && !reached.containsAll(expected); sent += batch,
                batch = 1) {
            Actions keys = new Actions(browser);
            for (int i = 0; i < batch; i++) {
                keys.sendKeys(Keys.TAB);
            }
            keys.perform();
            for (List<Object> focused : (List<List<Object>>) js.executeScript(FOCUS_LOG)) {
                reached.add((String) focused.get(0));
                if (((String) focused.get(1)).isEmpty()) {
                    unnamed.add((String) focused.get(3));
                }
                if (!(Boolean) focused.get(2)) {
                    noFocusStyle.add((String) focused.get(3));
                }
            }
        }
        Set<String> missed = new HashSet<>(expected);
        missed.removeAll(reached);
        List<String> missedHtml = missed.stream().map(key -> (String) js.executeScript(
            "const e = document.querySelector('[data-kbd=\"' + arguments[0] + '\"]');"
                + "return e ? e.outerHTML.slice(0, 160) : null", key)).filter(java.util.Objects::nonNull).toList();
        assertThat(missedHtml).as("elements of %s that Tab does not reach", page.route()).isEmpty();
        assertThat(unnamed).as("focusable elements of %s without an accessible name", page.route()).isEmpty();
        assertThat(noFocusStyle).as("focusable elements of %s without a visible focus style", page.route()).isEmpty();
    }
}
