package io.tributary.adminui.pages;

import java.net.URI;
import java.util.List;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A page of the admin UI as the browser tests visit it: its route (the part after {@code #}), the id
 * of its heading, a CSS selector that is present once its content has loaded, optionally the id of a
 * filter field and what to type into it first, and the name of its screenshot in {@code docs/screenshots}.
 */
public record UiPage(String name, String route, String titleId, String ready, String filterId, String filter) {

    UiPage(String name, String route, String titleId, String ready) {
        this(name, route, titleId, ready, null, null);
    }

    /** Every page, on the tour's topic {@link TourData#TOPIC} and group {@link TourData#GROUP}. */
    public static final List<UiPage> ALL = List.of(
        new UiPage("overview", "/", "overview-title", "#brokers tbody tr"),
        new UiPage("topics", "/topics", "topics-title", "tr[data-topic='" + TourData.TOPIC + "']"),
        new UiPage("topic", "/topics/" + TourData.TOPIC, "topic-title", "#partitions tbody tr"),
        new UiPage("messages", "/topics/" + TourData.TOPIC + "/messages", "messages-title", "tr.msg"),
        // Filtered to the tour's group: the list fails while any group has offsets of a deleted topic
        // (the proxy's lag lookup times out on it), which other browser steps leave behind.
        new UiPage("groups", "/groups", "groups-title", "tr[data-group='" + TourData.GROUP + "']", "group-filter",
            TourData.GROUP),
        new UiPage("group", "/groups/" + TourData.GROUP, "group-title", "#offsets tbody tr"),
        new UiPage("share-groups", "/share-groups", "share-groups-title", "tr[data-share-group='" + TourData.SHARE_GROUP + "']"),
        new UiPage("share-group", "/share-groups/" + TourData.SHARE_GROUP, "share-group-title",
            "#share-partitions tr, #share-partitions-unavailable, #no-share-partitions"),
        new UiPage("transactions", "/transactions", "transactions-title", "main table, main .empty"),
        new UiPage("brokers", "/brokers", "brokers-title", "tr[data-broker-row='0']"),
        new UiPage("broker", "/brokers/0", "broker-title", "tr[data-broker-config]"),
        new UiPage("reassignments", "/reassignments", "reassignments-title", "#no-reassignments, main table"),
        new UiPage("acls", "/acls", "acls-title", "main table, main .empty, main [role=alert]"),
        new UiPage("users", "/users", "users-title", "main table, main .empty, main [role=alert]"),
        new UiPage("quotas", "/quotas", "quotas-title", "main table, main .empty, main [role=alert]"));

    /** Loads the page (a fresh document: {@code query} tells loads apart) and waits until its content is there. */
    public void open(WebDriver browser, WebDriverWait wait, URI ui, String query) {
        browser.get(ui.resolve("/" + query + "#" + route).toString());
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id(titleId)));
        if (filterId != null) {
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id(filterId))).sendKeys(filter);
        }
        wait.until(d -> !d.findElements(By.cssSelector(ready)).isEmpty());
        wait.until(d -> d.findElements(By.cssSelector("main .loading, main [aria-busy='true']")).isEmpty());
    }

    public void open(WebDriver browser, WebDriverWait wait, URI ui) {
        open(browser, wait, ui, "");
    }

    /** The page's file name in docs/screenshots. */
    public String screenshot() {
        return name + ".png";
    }
}
