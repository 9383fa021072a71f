package io.tributary.broker.group;

import com.google.re2j.Pattern;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.coordinator.group.api.assignor.ConsumerGroupPartitionAssignor;

/**
 * What the members of a KIP-848 consumer group subscribe to, resolved against the cluster's topics:
 * topic lists, RE2/J patterns (compiled once and cached), and the server-side assignor the group
 * uses. Serves members of both protocols (classic members subscribe with topic lists).
 *
 * <p>Thread-safe.
 */
final class ConsumerGroupSubscriptions {

    private final GroupTopics topics;
    private final LinkedHashMap<String, ConsumerGroupPartitionAssignor> assignors;
    private final Map<String, Pattern> patterns = new ConcurrentHashMap<>();

    /** @param assignors {@code group.consumer.assignors} by name; the first is the default */
    ConsumerGroupSubscriptions(GroupTopics topics, LinkedHashMap<String, ConsumerGroupPartitionAssignor> assignors) {
        this.topics = topics;
        this.assignors = assignors;
    }

    /** The topics that exist among those the group's members subscribe to, by name. */
    Map<String, GroupTopic> subscribedTopics(ConsumerGroup group) {
        Map<String, GroupTopic> subscribed = new HashMap<>();
        for (String name : group.subscribedTopicNames(this::topicsOf)) {
            topics.topic(name).ifPresent(topic -> subscribed.put(name, topic));
        }
        return subscribed;
    }

    /** The topic names a member subscribes to: its list, or the topics its pattern matches (internal ones excluded). */
    Set<String> topicsOf(ConsumerGroupMember member) {
        java.util.Collection<String> clusterTopics = topics.names();
        if (!member.usesRegex()) {
            return new HashSet<>(member.subscribedTopicNames());
        }
        Pattern pattern = pattern(member.subscribedTopicRegex());
        Set<String> matched = new TreeSet<>();
        for (String topic : clusterTopics) {
            if (!Topic.isInternal(topic) && pattern.matcher(topic).matches()) {
                matched.add(topic);
            }
        }
        return matched;
    }

    /** The compiled pattern; PatternSyntaxException when it is not a valid RE2/J expression. */
    Pattern pattern(String regex) {
        if (patterns.size() > 10_000) {
            patterns.clear();
        }
        return patterns.computeIfAbsent(regex, Pattern::compile);
    }

    /** The assignor the most members ask for, else the first configured (Kafka's preferred server assignor). */
    ConsumerGroupPartitionAssignor assignorOf(ConsumerGroup group) {
        Map<String, Integer> votes = new HashMap<>();
        group.members().forEach(m -> {
            if (m.serverAssignor() != null) {
                votes.merge(m.serverAssignor(), 1, Integer::sum);
            }
        });
        String chosen = votes.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
            .orElse(assignors.keySet().iterator().next());
        return assignors.get(chosen);
    }
}
