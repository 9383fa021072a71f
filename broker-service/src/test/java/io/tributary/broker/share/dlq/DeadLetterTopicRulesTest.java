package io.tributary.broker.share.dlq;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DeadLetterTopicRulesTest {

    @Test
    void anEnabledTopicWithThePrefixIsAccepted() {
        assertThat(DeadLetterTopicRules.refusal("g", "dlq.orders", "dlq.", true, true, false)).isEmpty();
    }

    @Test
    void aTopicWithoutThePrefixIsRefused() {
        assertThat(DeadLetterTopicRules.refusal("g", "orders-dlq", "dlq.", true, true, false)).hasValue(
            "Configured DLQ topic name does not comply with the DLQ topic prefix in share group: g, topic: orders-dlq, prefix: dlq..");
    }

    @Test
    void aBlankPrefixAcceptsAnyName() {
        assertThat(DeadLetterTopicRules.refusal("g", "orders-dlq", "", true, true, false)).isEmpty();
    }

    @Test
    void internalNamesAreRefused() {
        assertThat(DeadLetterTopicRules.refusal("g", "__dlq", "", true, true, true)).get().asString()
            .contains("cannot start with __");
    }

    @Test
    void anExistingTopicMustEnableDeadLettersForGroups() {
        assertThat(DeadLetterTopicRules.refusal("g", "dlq.orders", "dlq.", true, false, true)).hasValue(
            "DLQ is not enabled on configured DLQ topic for share group: g, topic: dlq.orders.");
    }

    @Test
    void aMissingTopicIsRefusedUnlessAutoCreationIsEnabled() {
        assertThat(DeadLetterTopicRules.refusal("g", "dlq.orders", "dlq.", false, false, false)).get().asString()
            .contains("does not exist and auto create is disabled");
        assertThat(DeadLetterTopicRules.refusal("g", "dlq.orders", "dlq.", false, false, true)).isEmpty();
    }
}
