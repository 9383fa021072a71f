package io.tributary.broker.group;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.Uuid;

/**
 * The cluster's topics as the group coordinator looks them up for KIP-848 assignments: one topic
 * by name, its name by id, and every name (for regular-expression subscriptions). Implementations
 * read the broker's metadata cache without copying it. Thread-safe.
 */
public interface GroupTopics {

    /** The topic of that name, unless it does not exist or is being deleted. */
    Optional<GroupTopic> topic(String name);

    /** The name of the topic with that id. */
    Optional<String> name(Uuid topicId);

    /** Every topic name. */
    Collection<String> names();

    /** A fixed set of topics, for tests. */
    static GroupTopics of(Map<String, GroupTopic> topics) {
        return new GroupTopics() {
            @Override
            public Optional<GroupTopic> topic(String name) {
                return Optional.ofNullable(topics.get(name));
            }

            @Override
            public Optional<String> name(Uuid topicId) {
                Map<Uuid, String> names = new HashMap<>();
                topics.forEach((n, t) -> names.put(t.topicId(), n));
                return Optional.ofNullable(names.get(topicId));
            }

            @Override
            public Collection<String> names() {
                return topics.keySet();
            }
        };
    }
}
