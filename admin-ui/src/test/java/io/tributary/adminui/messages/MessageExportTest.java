package io.tributary.adminui.messages;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.messages.MessageViews.HeaderView;
import io.tributary.adminui.messages.MessageViews.Message;
import io.tributary.adminui.messages.MessageViews.Payload;
import java.util.List;
import org.junit.jupiter.api.Test;

class MessageExportTest {

    private static Payload text(String s) {
        return new Payload("text", s, s.length());
    }

    private static final Payload NULL = new Payload("null", null, 0);

    private static final Message JSON_ORDER = new Message(0, 5, 1_700_000_000_000L, text("order-42"),
        new Payload("json", "{\n  \"id\" : 42,\n  \"item\" : \"kayak\"\n}", 24),
        List.of(new HeaderView("source", text("admin-ui"))));
    private static final Message AWKWARD = new Message(1, 9, 1_700_000_000_001L, NULL,
        text("a, \"quoted\" word\nand a second line"), List.of());

    @Test
    void jsonLinesHaveOneObjectPerRecordWithJsonValuesAsJson() {
        assertThat(MessageExport.jsonLines("orders", List.of(JSON_ORDER, AWKWARD))).isEqualTo(
            "{\"topic\":\"orders\",\"partition\":0,\"offset\":5,\"timestamp\":1700000000000,\"key\":\"order-42\","
                + "\"value\":{\"id\":42,\"item\":\"kayak\"},\"headers\":[{\"name\":\"source\",\"value\":\"admin-ui\"}]}\n"
                + "{\"topic\":\"orders\",\"partition\":1,\"offset\":9,\"timestamp\":1700000000001,\"key\":null,"
                + "\"value\":\"a, \\\"quoted\\\" word\\nand a second line\",\"headers\":[]}\n");
    }

    @Test
    void csvHasAHeaderRowAndQuotesCommasQuotesAndNewlines() {
        assertThat(MessageExport.csv("orders", List.of(JSON_ORDER, AWKWARD))).isEqualTo(
            "topic,partition,offset,timestamp,key,value,headers\r\n"
                + "orders,0,5,1700000000000,order-42,\"{\"\"id\"\":42,\"\"item\"\":\"\"kayak\"\"}\","
                + "\"[{\"\"name\"\":\"\"source\"\",\"\"value\"\":\"\"admin-ui\"\"}]\"\r\n"
                + "orders,1,9,1700000000001,,\"a, \"\"quoted\"\" word\nand a second line\",[]\r\n");
    }

    @Test
    void quotesOnlyWhatNeedsIt() {
        assertThat(MessageExport.quote("plain text")).isEqualTo("plain text");
        assertThat(MessageExport.quote("a,b")).isEqualTo("\"a,b\"");
        assertThat(MessageExport.quote("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
        assertThat(MessageExport.quote("line\r\nbreak")).isEqualTo("\"line\r\nbreak\"");
        assertThat(MessageExport.quote("")).isEqualTo("");
    }

    @Test
    void aJsonValueCutForDisplayIsExportedAsItsText() {
        Message cut = new Message(0, 1, 0, NULL, new Payload("json", "{\"id\": 1, \"long\": \"xx…", 999_999), List.of());
        assertThat(MessageExport.jsonLines("t", List.of(cut))).contains("\"value\":\"{\\\"id\\\": 1, \\\"long\\\": \\\"xx…\"");
    }
}
