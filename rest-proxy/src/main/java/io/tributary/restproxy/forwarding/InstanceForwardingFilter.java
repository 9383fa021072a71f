package io.tributary.restproxy.forwarding;

import io.tributary.restproxy.consumer.ConsumerManager;
import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.error.RestException;
import io.tributary.restproxy.error.RestExceptionHandler;
import io.tributary.restproxy.share.ShareInstanceManager;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.UriUtils;
import tools.jackson.databind.json.JsonMapper;

/**
 * Lets any proxy replica serve any consumer instance, so a load balancer needs no sticky
 * sessions: a request under {@code /consumers/{group}/instances/{id}} (or, for a share consumer
 * instance, {@code /share-groups/{group}/instances/{id}}) for an instance this replica does not
 * hold is sent on to the replica that does ({@link PeerDirectory}) and its answer relayed
 * unchanged. A forwarded request carries {@value #FORWARDED_HEADER} and is never forwarded again.
 * When no replica holds the instance the request is served here (40403).
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
public class InstanceForwardingFilter extends OncePerRequestFilter {

    static final String FORWARDED_HEADER = "X-Tributary-Forwarded-By";

    private static final Logger log = LoggerFactory.getLogger(InstanceForwardingFilter.class);
    /** Authorization goes along: the owner signs the caller in and checks the instance is theirs. */
    /** Answer headers relayed besides Content-Type: the owner's sign-in challenge and rate limit. */
    private static final List<String> RELAYED_HEADERS = List.of("WWW-Authenticate", "Retry-After");
    private static final List<String> COPIED_HEADERS = List.of("Content-Type", "Accept", "Last-Event-ID",
        "Authorization");

    private final ConsumerManager consumers;
    private final ShareInstanceManager shareInstances;
    private final PeerDirectory directory;
    private final JsonMapper mapper;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public InstanceForwardingFilter(ConsumerManager consumers, ShareInstanceManager shareInstances,
            PeerDirectory directory, JsonMapper mapper) {
        this.consumers = consumers;
        this.shareInstances = shareInstances;
        this.directory = directory;
        this.mapper = mapper;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        InstanceKind kind = null;
        Matcher path = null;
        for (InstanceKind candidate : InstanceKind.values()) {
            Matcher matcher = candidate.path().matcher(request.getRequestURI());
            if (matcher.matches()) {
                kind = candidate;
                path = matcher;
                break;
            }
        }
        if (kind == null || request.getHeader(FORWARDED_HEADER) != null) {
            chain.doFilter(request, response);
            return;
        }
        // Decoded as Spring decodes path variables: %XX only ('+' is a plus sign in a path).
        String group = UriUtils.decode(path.group(1), StandardCharsets.UTF_8);
        String instance = UriUtils.decode(path.group(2), StandardCharsets.UTF_8);
        boolean held = kind == InstanceKind.SHARE ? shareInstances.contains(group, instance)
            : consumers.contains(group, instance);
        if (held) {
            chain.doFilter(request, response);
            return;
        }
        CachedBodyRequest cached;
        try {
            cached = new CachedBodyRequest(request);
        } catch (RestException e) {
            // The body went over rest-proxy.max-request-body-size while being read.
            RestExceptionHandler.write(e, request, response, mapper);
            return;
        }
        Optional<String> owner = directory.ownerOf(kind, group, instance);
        for (int attempt = 0; attempt < 2 && owner.isPresent(); attempt++) {
            Outcome outcome = forward(owner.get(), cached, response);
            if (outcome == Outcome.RELAYED) {
                return;
            }
            directory.forget(kind, group, instance);
            // Not there any more (deleted, or re-created on another replica): look again once.
            owner = outcome == Outcome.NOT_THERE ? directory.ownerOf(kind, group, instance) : Optional.empty();
        }
        chain.doFilter(cached, response);
    }

    /** What became of a forwarded request. */
    private enum Outcome { RELAYED, NOT_THERE, UNREACHABLE }

    /** Relays the request to {@code owner}, unless it answers that it does not hold the instance (40403). */
    private Outcome forward(String owner, CachedBodyRequest request, HttpServletResponse response)
            throws IOException {
        String query = request.getQueryString();
        URI target = URI.create(owner + request.getRequestURI() + (query == null ? "" : "?" + query));
        byte[] body = request.body();
        HttpRequest.Builder forwarded = HttpRequest.newBuilder(target)
            .timeout(Duration.ofMillis(timeoutMs(request)))
            .header(FORWARDED_HEADER, directory.replicaId())
            .method(request.getMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(body));
        for (String name : COPIED_HEADERS) {
            String value = request.getHeader(name);
            if (value != null) {
                forwarded.header(name, value);
            }
        }
        HttpResponse<byte[]> answer;
        try {
            answer = client.send(forwarded.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            log.warn("Forwarding {} {} to {} failed: {}", request.getMethod(), request.getRequestURI(), owner,
                e.toString());
            return Outcome.UNREACHABLE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Outcome.UNREACHABLE;
        }
        if (answer.statusCode() == 404 && new String(answer.body(), StandardCharsets.UTF_8).contains(
                "\"error_code\":" + RestError.CONSUMER_INSTANCE_NOT_FOUND.code())) {
            return Outcome.NOT_THERE;
        }
        response.setStatus(answer.statusCode());
        answer.headers().firstValue("Content-Type").ifPresent(response::setContentType);
        for (String name : RELAYED_HEADERS) {
            answer.headers().firstValue(name).ifPresent(value -> response.setHeader(name, value));
        }
        response.getOutputStream().write(answer.body());
        return Outcome.RELAYED;
    }

    /** A request whose body has been read once, to be sent on and, if need be, served here too. */
    private static final class CachedBodyRequest extends HttpServletRequestWrapper {

        private final byte[] body;

        CachedBodyRequest(HttpServletRequest request) throws IOException {
            super(request);
            this.body = request.getInputStream().readAllBytes();
        }

        byte[] body() {
            return body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] buffer, int offset, int length) {
                    return in.read(buffer, offset, length);
                }

                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException("blocking reads only");
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            return new BufferedReader(new InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
        }
    }

    /** Long polls wait up to their own timeout; everything else gets a minute. */
    private static long timeoutMs(HttpServletRequest request) {
        String timeout = request.getParameter("timeout");
        long pollMs = 0;
        if (timeout != null) {
            try {
                pollMs = Math.max(0, Long.parseLong(timeout));
            } catch (NumberFormatException e) {
                pollMs = 0;
            }
        }
        return 60_000 + pollMs;
    }
}
