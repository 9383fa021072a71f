package io.tributary.restproxy.http;

import io.tributary.restproxy.config.RestProxyProperties;
import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.error.RestErrorException;
import io.tributary.restproxy.error.RestExceptionHandler;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Refuses request bodies over {@code rest-proxy.max-request-body-size} with 413 and error code
 * 413: at once when {@code Content-Length} says so, and while reading when a chunked body grows
 * past the limit, so a huge body is never buffered whole.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class RequestBodyLimitFilter extends OncePerRequestFilter {

    private final long maxBytes;
    private final JsonMapper mapper;

    public RequestBodyLimitFilter(RestProxyProperties properties, JsonMapper mapper) {
        this.maxBytes = properties.maxRequestBodySize().toBytes();
        this.mapper = mapper;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long length = request.getContentLengthLong();
        if (length > maxBytes) {
            RestExceptionHandler.write(tooLarge(), request, response, mapper);
            return;
        }
        chain.doFilter(new LimitedRequest(request), response);
    }

    private RestErrorException tooLarge() {
        return RestError.PAYLOAD_TOO_LARGE.exception("Request body is larger than the limit of " + maxBytes
            + " bytes (rest-proxy.max-request-body-size)");
    }

    /** A request whose body stream fails with a 413 {@link RestErrorException} past the limit. */
    private final class LimitedRequest extends HttpServletRequestWrapper {

        private ServletInputStream limited;

        LimitedRequest(HttpServletRequest request) {
            super(request);
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (limited == null) {
                limited = new LimitedInputStream(super.getInputStream());
            }
            return limited;
        }
    }

    private final class LimitedInputStream extends ServletInputStream {

        private final ServletInputStream in;
        private long read;

        LimitedInputStream(ServletInputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = in.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int n) {
            read += n;
            if (read > maxBytes) {
                throw tooLarge();
            }
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}
