package io.tributary.adminui.messages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.adminui.messages.MessageViews.ProxyHeader;
import io.tributary.adminui.messages.MessageViews.ProxyRecord;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class MessageFilterTest {

    private static String b64(String text) {
        return text == null ? null : Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private static ProxyRecord record(String key, String value, String... headers) {
        List<ProxyHeader> hs = new java.util.ArrayList<>();
        for (int i = 0; i < headers.length; i += 2) {
            hs.add(new ProxyHeader(headers[i], b64(headers[i + 1])));
        }
        return new ProxyRecord("orders", b64(key), b64(value), 1, 7, 1_700_000_000_000L, hs);
    }

    private static final ProxyRecord BIG_ORDER = record("order-42", "{\"id\":42,\"item\":\"kayak\",\"qty\":3,"
        + "\"customer\":{\"country\":\"NO\"}}", "source", "admin-ui");
    private static final ProxyRecord SMALL_ORDER = record("order-7", "{\"id\":7,\"item\":\"paddle\",\"qty\":1}",
        "source", "shop");
    private static final ProxyRecord TEXT = record(null, "plain text, qty unknown");

    private static List<ProxyRecord> passing(MessageFilter filter) {
        return Arrays.asList(BIG_ORDER, SMALL_ORDER, TEXT).stream().filter(filter::test).toList();
    }

    @Test
    void comparesAFieldOfAJsonValue() {
        assertThat(passing(MessageFilter.of("@.value.qty > 1", null, null))).containsExactly(BIG_ORDER);
        assertThat(passing(MessageFilter.of("@.value.item == 'paddle'", null, null))).containsExactly(SMALL_ORDER);
        assertThat(passing(MessageFilter.of("@.value.customer.country in ['NO', 'SE']", null, null)))
            .containsExactly(BIG_ORDER);
    }

    @Test
    void aValueWithoutTheFieldDoesNotMatchAndTextValuesAreStrings() {
        assertThat(passing(MessageFilter.of("@.value.customer", null, null))).containsExactly(BIG_ORDER);
        assertThat(passing(MessageFilter.of("@.value =~ /plain.*/", null, null))).containsExactly(TEXT);
    }

    @Test
    void matchesTheKeyExactlyOrByRegexOrBySubstring() {
        assertThat(passing(MessageFilter.of("@.key == 'order-7'", null, null))).containsExactly(SMALL_ORDER);
        assertThat(passing(MessageFilter.of("@.key =~ /order-4.*/", null, null))).containsExactly(BIG_ORDER);
        assertThat(passing(MessageFilter.of(null, "ORDER", null))).containsExactly(BIG_ORDER, SMALL_ORDER);
        assertThat(passing(MessageFilter.of("", null, "kayak"))).containsExactly(BIG_ORDER);
    }

    @Test
    void matchesAHeader() {
        assertThat(passing(MessageFilter.of("@.headers.source == 'shop'", null, null))).containsExactly(SMALL_ORDER);
        assertThat(passing(MessageFilter.of("@.headers.source == 'admin-ui' && @.value.id == 42", null, null)))
            .containsExactly(BIG_ORDER);
        assertThat(passing(MessageFilter.of("@.headers.trace", null, null))).isEmpty();
    }

    /** The operators and examples docs/admin-ui.md gives. */
    @Test
    void theDocumentedOperatorsWork() {
        assertThat(passing(MessageFilter.of("@.key =~ /ORDER-4.*/i", null, null))).containsExactly(BIG_ORDER);
        assertThat(passing(MessageFilter.of("!@.value.customer", null, null))).containsExactly(SMALL_ORDER, TEXT);
        assertThat(passing(MessageFilter.of("@.value.customer.country in ['NO', 'SE'] || @.partition == 3", null,
            null))).containsExactly(BIG_ORDER);
        // A path the record lacks equals nothing: != and nin hold for it, ==, <, in... do not.
        assertThat(passing(MessageFilter.of("@.value.item nin ['kayak']", null, null)))
            .containsExactly(SMALL_ORDER, TEXT);
        assertThat(passing(MessageFilter.of("@.value.id != 42", null, null))).containsExactly(SMALL_ORDER, TEXT);
        assertThat(passing(MessageFilter.of("@.value.id < 100 || @.value.id in [7]", null, null)))
            .containsExactly(BIG_ORDER, SMALL_ORDER);
        assertThat(passing(MessageFilter.of("@.key size 7", null, null))).containsExactly(SMALL_ORDER);
        assertThat(passing(MessageFilter.of("@.value.item empty false", null, null)))
            .containsExactly(BIG_ORDER, SMALL_ORDER);
        // The library cannot test an object for emptiness: no record passes, none fails the scan.
        assertThat(passing(MessageFilter.of("@.headers empty true", null, null))).isEmpty();
        assertThat(passing(MessageFilter.of("(@.value.qty >= 3 || @.key == 'order-7') && @.offset == 7", null, null)))
            .containsExactly(BIG_ORDER, SMALL_ORDER);
    }

    @Test
    void allPartsMustPass() {
        assertThat(passing(MessageFilter.of("@.value.qty >= 1", "order-7", "paddle"))).containsExactly(SMALL_ORDER);
        assertThat(passing(MessageFilter.of("@.value.qty >= 1", "order-7", "kayak"))).isEmpty();
    }

    @Test
    void anEmptyFilterLetsEverythingThrough() {
        MessageFilter none = MessageFilter.of("  ", "", null);
        assertThat(none.isEmpty()).isTrue();
        assertThat(passing(none)).hasSize(3);
    }

    @Test
    void aMalformedExpressionIsRefusedWithTheParsersMessage() {
        assertThatThrownBy(() -> MessageFilter.of("@.value.qty >", null, null))
            .isInstanceOf(MessageFilter.InvalidExpressionException.class).hasMessageContaining("qty");
        assertThatThrownBy(() -> MessageFilter.of("@.value.qty > 1 &&", null, null))
            .isInstanceOf(MessageFilter.InvalidExpressionException.class).message().isNotBlank();
        assertThatThrownBy(() -> MessageFilter.of("@.key == 'a')] || $[?(@", null, null))
            .isInstanceOf(MessageFilter.InvalidExpressionException.class);
    }

    @Test
    void theDocumentHoldsTheRecordsPartsDecoded() {
        assertThat(MessageFilter.document(BIG_ORDER)).containsEntry("partition", 1).containsEntry("offset", 7L)
            .containsEntry("key", "order-42").containsEntry("headers", java.util.Map.of("source", "admin-ui"));
        assertThat(MessageFilter.document(TEXT)).containsEntry("key", null)
            .containsEntry("value", "plain text, qty unknown");
    }
}
