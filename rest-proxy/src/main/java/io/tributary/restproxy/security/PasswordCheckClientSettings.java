package io.tributary.restproxy.security;

import java.util.Map;

/**
 * The settings of the short-lived Admin client with which {@link BrokerPasswordCheck} logs in to
 * the brokers as a caller. Implemented by the Kafka clients' settings, which depend on this
 * package for the caller's {@link KafkaLogin}. Implementations are immutable and thread-safe.
 */
@FunctionalInterface
public interface PasswordCheckClientSettings {

    /** Admin client settings that log in as {@code login}. */
    Map<String, Object> passwordCheck(KafkaLogin login);
}
