package io.tributary.broker.share.dlq;

import java.util.Optional;

/**
 * Whether a share group may write to its dead-letter topic, checked in Kafka 4.4's order and with its
 * messages (KIP-1191, {@code ShareGroupDLQStateManager.validateDlqTopic}). Kafka checks these when a
 * record is to be written, not when the group config is set (IncrementalAlterConfigs refuses only a
 * name starting with {@code __}); so does this broker.
 */
public final class DeadLetterTopicRules {

    private DeadLetterTopicRules() {
    }

    /**
     * @param topic          the group's {@code errors.deadletterqueue.topic.name}
     * @param prefix         {@code errors.deadletterqueue.topic.name.prefix} (blank: any name)
     * @param exists         whether the topic exists
     * @param enabledOnTopic whether its {@code errors.deadletterqueue.group.enable} is true
     * @param autoCreate     {@code errors.deadletterqueue.auto.create.topics.enable}
     * @return why the group may not write there, or empty
     */
    public static Optional<String> refusal(String groupId, String topic, String prefix, boolean exists,
                                           boolean enabledOnTopic, boolean autoCreate) {
        if (topic == null || topic.isBlank()) {
            return Optional.of(String.format("Configured DLQ topic name in share group: %s is empty.", groupId));
        }
        if (topic.startsWith("__")) {
            return Optional.of(String.format("Configured DLQ topic name in share group: %s cannot start with __, topic: %s.",
                groupId, topic));
        }
        if (exists && !enabledOnTopic) {
            return Optional.of(String.format("DLQ is not enabled on configured DLQ topic for share group: %s, topic: %s.",
                groupId, topic));
        }
        if (!exists && !autoCreate) {
            return Optional.of(String.format(
                "DLQ topic does not exist and auto create is disabled on cluster for share group: %s, topic: %s.", groupId, topic));
        }
        if (prefix != null && !prefix.isEmpty() && !topic.startsWith(prefix)) {
            return Optional.of(String.format(
                "Configured DLQ topic name does not comply with the DLQ topic prefix in share group: %s, topic: %s, prefix: %s.",
                groupId, topic, prefix));
        }
        return Optional.empty();
    }
}
