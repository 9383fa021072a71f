package io.tributary.adminui.messages;

import io.tributary.adminui.messages.MessageViews.ProxyRecord;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET /api/topics/{name}/messages/stream}: the live tail. Relays the REST proxy's SSE
 * stream of the topic (from the log end, or after {@code Last-Event-ID} on reconnect), each
 * {@code record} event's data turned into the page's decoded {@link MessageViews.Message}. Ends
 * when the browser goes away (noticed at the next event or the proxy's heartbeat) or the proxy
 * closes the stream, or the app stops ({@link OpenTails}). A proxy error before the stream opens is
 * an ordinary JSON error answer.
 */
@RestController
public class MessageStreamController {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final MessagesProxyClient records;
    private final OpenTails openTails;

    public MessageStreamController(MessagesProxyClient records, OpenTails openTails) {
        this.records = records;
        this.openTails = openTails;
    }

    // No "produces": an error before the stream opens is answered as JSON whatever the Accept header.
    @GetMapping("/api/topics/{name}/messages/stream")
    public void stream(@PathVariable String name,
            @RequestHeader(name = "Last-Event-ID", required = false) String lastEventId,
            @RequestParam(defaultValue = "false") boolean committed,
            HttpServletResponse response) throws IOException {
        InputStream upstream = records.openStream(name, lastEventId, committed);
        if (!openTails.add(upstream)) {
            response.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE, "Shutting down");
            return;
        }
        try (upstream; BufferedReader lines = new BufferedReader(new InputStreamReader(upstream,
                StandardCharsets.UTF_8))) {
            response.setStatus(200);
            response.setContentType(MediaType.TEXT_EVENT_STREAM_VALUE);
            response.setCharacterEncoding("UTF-8");
            response.setHeader("Cache-Control", "no-cache");
            response.setHeader("X-Accel-Buffering", "no");
            // Nothing is written before the proxy's first line: that comment comes once the proxy has placed
            // its consumer at the log end, so the browser's "open" means records from then on are seen.
            OutputStream out = response.getOutputStream();
            String line;
            while ((line = lines.readLine()) != null) {
                out.write((relay(line) + "\n").getBytes(StandardCharsets.UTF_8));
                if (line.isEmpty()) {
                    out.flush();
                }
            }
            out.flush();
        } catch (IOException browserGone) {
            // the browser closed the stream (or the proxy did, or the app is stopping): closing the
            // upstream ends the proxy's side
        } finally {
            openTails.remove(upstream);
        }
    }

    /** A data line's record decoded for display; every other line as it came. */
    static String relay(String line) {
        if (!line.startsWith("data:")) {
            return line;
        }
        String data = line.substring(5).strip();
        try {
            ProxyRecord record = JSON.readValue(data, ProxyRecord.class);
            return "data:" + JSON.writeValueAsString(PayloadDecoder.message(record));
        } catch (JacksonException | IllegalArgumentException notARecord) {
            return line;
        }
    }
}
