package io.tributary.broker.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

/**
 * The INFO-or-higher events of one class's logger during each test, for tests of what a class logs and how often
 * ({@code @RegisterExtension final LoggerEvents log = new LoggerEvents(RefusedRequestLog.class)}). Unlike
 * {@link LogCapture}, which takes every logger of the JVM, it touches only that logger, and restores its level after
 * each test. Not for tests that run in parallel with each other.
 */
public final class LoggerEvents implements BeforeEachCallback, AfterEachCallback {

    private final Logger logger;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    public LoggerEvents(Class<?> loggingClass) {
        this.logger = (Logger) LoggerFactory.getLogger(loggingClass);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        appender.list.clear();
        appender.start();
        logger.addAppender(appender);
        logger.setLevel(Level.INFO);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        logger.detachAppender(appender);
        logger.setLevel(null);
    }

    /** The events logged since the test began, in order. */
    public List<ILoggingEvent> events() {
        return List.copyOf(appender.list);
    }

    /** Each event as its level, a space and its formatted message ({@code "WARN Refused METADATA v12 ..."}). */
    public List<String> messages() {
        return events().stream().map(e -> e.getLevel() + " " + e.getFormattedMessage()).toList();
    }
}
