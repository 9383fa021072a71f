package io.tributary.restproxy.testing;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.AppenderBase;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.slf4j.LoggerFactory;

/**
 * Every INFO-or-higher log line of this JVM (the proxy, its Kafka clients and Spring, exceptions
 * included) while it is open, so a test can check that no password is logged at the
 * level production logs at. The test configuration keeps most libraries at WARN; while
 * open, every logger is lowered to INFO for the capture, and the console still prints only what
 * the configuration asked for. Not for tests that run in parallel with each other.
 */
public final class LogCapture extends AppenderBase<ILoggingEvent> implements AutoCloseable {

    private final List<String> lines = new ArrayList<>();
    private final Map<Logger, Level> configured = new HashMap<>();
    private final List<Appender<ILoggingEvent>> consoleAppenders = new ArrayList<>();
    private final Filter<ILoggingEvent> asConfigured = new Filter<>() {
        @Override
        public FilterReply decide(ILoggingEvent event) {
            return event.getLevel().isGreaterOrEqual(configuredLevel(event.getLoggerName()))
                ? FilterReply.NEUTRAL : FilterReply.DENY;
        }
    };

    private LogCapture() {
    }

    /** Starts capturing on the root logger. */
    public static LogCapture open() {
        LogCapture capture = new LogCapture();
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        capture.setContext(context);
        capture.setName("log-capture");
        capture.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        for (Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext(); ) {
            Appender<ILoggingEvent> appender = it.next();
            appender.addFilter(capture.asConfigured);
            capture.consoleAppenders.add(appender);
        }
        for (Logger logger : context.getLoggerList()) {
            if (logger.getLevel() != null) {
                capture.configured.put(logger, logger.getLevel());
                if (logger.getLevel().isGreaterOrEqual(Level.WARN)) {
                    logger.setLevel(Level.INFO);
                }
            }
        }
        root.addAppender(capture);
        return capture;
    }

    private Level configuredLevel(String name) {
        LoggerContext context = (LoggerContext) getContext();
        String current = name;
        while (true) {
            Logger logger = context.exists(current);
            if (logger != null && configured.containsKey(logger)) {
                return configured.get(logger);
            }
            int dot = current.lastIndexOf('.');
            if (dot < 0) {
                return configured.getOrDefault(context.getLogger(Logger.ROOT_LOGGER_NAME), Level.DEBUG);
            }
            current = current.substring(0, dot);
        }
    }

    @Override
    protected synchronized void append(ILoggingEvent event) {
        StringBuilder line = new StringBuilder(event.getLoggerName()).append(' ').append(event.getFormattedMessage());
        IThrowableProxy thrown = event.getThrowableProxy();
        if (thrown != null) {
            line.append('\n').append(ThrowableProxyUtil.asString(thrown));
        }
        lines.add(line.toString());
    }

    /** The lines captured so far. */
    public synchronized List<String> lines() {
        return List.copyOf(lines);
    }

    /** Asserts that some lines were captured and none contains any of {@code secrets}. */
    public void assertNoLineContains(String... secrets) {
        List<String> captured = lines();
        assertThat(captured).as("log lines captured").isNotEmpty();
        for (String secret : secrets) {
            assertThat(captured).as("log lines containing a secret").noneMatch(l -> l.contains(secret));
        }
    }

    @Override
    public void close() {
        LoggerContext context = (LoggerContext) getContext();
        context.getLogger(Logger.ROOT_LOGGER_NAME).detachAppender(this);
        configured.forEach(Logger::setLevel);
        for (Appender<ILoggingEvent> appender : consoleAppenders) {
            List<Filter<ILoggingEvent>> filters = appender.getCopyOfAttachedFiltersList();
            appender.clearAllFilters();
            filters.stream().filter(f -> f != asConfigured).forEach(appender::addFilter);
        }
        stop();
    }
}
