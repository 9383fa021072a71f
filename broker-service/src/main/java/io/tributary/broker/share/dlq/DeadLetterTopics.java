package io.tributary.broker.share.dlq;

/** Finds (and, when allowed, creates) a share group's dead-letter topic. May block: call off the event loops. */
@FunctionalInterface
public interface DeadLetterTopics {

    /**
     * @throws DeadLetterException refused ({@link DeadLetterTopicRules}, not retriable), or not ready yet
     *                             (being created, no metadata: retriable)
     */
    DeadLetterTarget resolve(String groupId, String topic);
}
