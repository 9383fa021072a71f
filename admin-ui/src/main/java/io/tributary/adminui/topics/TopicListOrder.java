package io.tributary.adminui.topics;

import io.tributary.adminui.proxy.ProxyResources.Topic;
import io.tributary.adminui.proxy.ProxyResources.TopicUsage;
import io.tributary.adminui.topics.TopicViews.TopicSort;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

/**
 * The orders of the topic list: by name, partition count, size on disk or message count, ascending or
 * descending; ties by name, and topics whose size or count is unknown after all others either way.
 */
final class TopicListOrder {

    private TopicListOrder() {
    }

    /** The sort named by the {@code sort} parameter; 400 for another. */
    static TopicSort sort(String name) {
        try {
            return TopicSort.valueOf(name.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "sort must be name, partitions, size or messages");
        }
    }

    /** Whether the {@code order} parameter asks for descending; 400 for other than asc or desc. */
    static boolean descending(String order) {
        return switch (order.strip().toLowerCase(Locale.ROOT)) {
            case "asc" -> false;
            case "desc" -> true;
            default -> throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "order must be asc or desc");
        };
    }

    /** The comparator; {@code usage} (by topic name) is needed for SIZE and MESSAGES. */
    static Comparator<Topic> comparator(TopicSort sort, boolean descending, Map<String, TopicUsage> usage) {
        Comparator<Topic> byName = Comparator.comparing(Topic::topicName);
        return switch (sort) {
            case NAME -> descending ? byName.reversed() : byName;
            case PARTITIONS -> Comparator.comparing(Topic::partitionsCount, direction(descending)).thenComparing(byName);
            case SIZE -> byUsage(usage, TopicUsage::sizeBytes, descending).thenComparing(byName);
            case MESSAGES -> byUsage(usage, TopicUsage::messageCount, descending).thenComparing(byName);
        };
    }

    private static Comparator<Topic> byUsage(Map<String, TopicUsage> usage, Function<TopicUsage, Long> value,
            boolean descending) {
        return Comparator.comparing((Topic t) -> {
            TopicUsage u = usage.get(t.topicName());
            return u == null ? null : value.apply(u);
        }, Comparator.nullsLast(direction(descending)));
    }

    private static <T extends Comparable<T>> Comparator<T> direction(boolean descending) {
        return descending ? Comparator.<T>reverseOrder() : Comparator.<T>naturalOrder();
    }
}
