package io.tributary.broker.share.dlq;

import io.tributary.broker.group.GroupConfigLookup;
import java.util.Optional;
import java.util.function.Function;

/**
 * A share group's dead-letter settings (KIP-1191 group configs).
 *
 * @param topic      {@code errors.deadletterqueue.topic.name}, not blank
 * @param copyRecord {@code errors.deadletterqueue.copy.record.enable}
 */
public record GroupDeadLetterConfig(String topic, boolean copyRecord) {

    /** The settings of a group from its group configs: empty when its topic name is blank (no dead-letter queue). */
    public static Function<String, Optional<GroupDeadLetterConfig>> from(GroupConfigLookup groupConfigs) {
        return groupId -> groupConfigs.groupConfig(groupId)
            .filter(config -> config.errorsDLQTopicName() != null && !config.errorsDLQTopicName().isBlank())
            .map(config -> new GroupDeadLetterConfig(config.errorsDLQTopicName().trim(), config.errorsDLQCopyRecordEnable()));
    }
}
