package io.tributary.adminui.pages;

import java.util.List;

/**
 * A page of the admin UI as the browser tests visit it: its route (the part after {@code #}), the id
 * of its heading, a CSS selector that is present once its content has loaded, and the name of its
 * screenshot in {@code docs/screenshots}.
 */
public record UiPage(String name, String route, String titleId, String ready) {

    /** Every page, on the tour's topic {@link TourData#TOPIC} and group {@link TourData#GROUP}. */
    public static final List<UiPage> ALL = List.of(
        new UiPage("overview", "/", "overview-title", "#brokers tbody tr"),
        new UiPage("topics", "/topics", "topics-title", "tr[data-topic='" + TourData.TOPIC + "']"),
        new UiPage("topic", "/topics/" + TourData.TOPIC, "topic-title", "#partitions tbody tr"),
        new UiPage("messages", "/topics/" + TourData.TOPIC + "/messages", "messages-title", "tr.msg"),
        new UiPage("groups", "/groups", "groups-title", "tr[data-group='" + TourData.GROUP + "']"),
        new UiPage("group", "/groups/" + TourData.GROUP, "group-title", "#offsets tbody tr"),
        new UiPage("share-groups", "/share-groups", "share-groups-title", "main table, main .empty"),
        new UiPage("transactions", "/transactions", "transactions-title", "main table, main .empty"));

    /** The page's file name in docs/screenshots. */
    public String screenshot() {
        return name + ".png";
    }
}
