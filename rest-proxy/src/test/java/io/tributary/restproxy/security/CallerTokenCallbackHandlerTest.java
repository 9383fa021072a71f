package io.tributary.restproxy.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.security.auth.callback.Callback;
import javax.security.auth.login.AppConfigurationEntry;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.security.JaasContext;
import org.apache.kafka.common.security.auth.SaslExtensionsCallback;
import org.apache.kafka.common.security.oauthbearer.OAuthBearerToken;
import org.apache.kafka.common.security.oauthbearer.OAuthBearerTokenCallback;
import org.apache.kafka.common.config.types.Password;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link BearerTokens} and the callback handler a bearer caller's Kafka clients ask for a token,
 * configured from the very JAAS text {@link KafkaLogin#saslSettings} gives those clients.
 */
class CallerTokenCallbackHandlerTest {

    /** A clock the test moves by hand. */
    private static final class ManualClock extends Clock {
        private volatile long millis = 1_000_000_000_000L;

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }
    }

    private final ManualClock clock = new ManualClock();
    private final BearerTokens tokens = new BearerTokens(clock);

    @AfterEach
    void close() {
        tokens.close();
    }

    private CallerToken token(String subject, String value, long expiresInMs) {
        return new CallerToken(value, subject, Set.of("kafka"), clock.instant(),
            Instant.ofEpochMilli(clock.millis + expiresInMs));
    }

    /** A handler configured as Kafka configures it for {@code login}'s clients. */
    private static CallerTokenCallbackHandler handlerFor(KafkaLogin login) {
        Map<String, Object> sasl = login.saslSettings("SCRAM-SHA-512");
        JaasContext context = JaasContext.loadClientContext(Map.of(SaslConfigs.SASL_JAAS_CONFIG,
            new Password((String) sasl.get(SaslConfigs.SASL_JAAS_CONFIG))));
        CallerTokenCallbackHandler handler = new CallerTokenCallbackHandler();
        handler.configure(Map.of(), (String) sasl.get(SaslConfigs.SASL_MECHANISM), context.configurationEntries());
        return handler;
    }

    private static OAuthBearerToken ask(CallerTokenCallbackHandler handler) throws Exception {
        OAuthBearerTokenCallback callback = new OAuthBearerTokenCallback();
        handler.handle(new Callback[] {callback, new SaslExtensionsCallback()});
        return callback.token();
    }

    @Test
    void aBearerLoginsClientsAskTheHandlerForTokensAtLoginAndOnEveryConnection() {
        KafkaLogin login = KafkaLogin.bearer("alice", tokens.id());

        Map<String, Object> sasl = login.saslSettings("SCRAM-SHA-512");

        assertThat(sasl).containsEntry(SaslConfigs.SASL_MECHANISM, "OAUTHBEARER")
            .containsEntry(SaslConfigs.SASL_LOGIN_CALLBACK_HANDLER_CLASS, CallerTokenCallbackHandler.class)
            .containsEntry(SaslConfigs.SASL_CLIENT_CALLBACK_HANDLER_CLASS, CallerTokenCallbackHandler.class);
        assertThat(login.principal()).isEqualTo("User:alice");
        assertThat(login).isEqualTo(KafkaLogin.bearer("alice", tokens.id()))
            .isNotEqualTo(KafkaLogin.bearer("bob", tokens.id()));
    }

    @Test
    void eachCallGivesTheCallersLatestToken() throws Exception {
        CallerTokenCallbackHandler handler = handlerFor(tokens.offer(token("alice", "first", 60_000)));
        OAuthBearerToken first = ask(handler);

        tokens.offer(token("alice", "fresher", 600_000));
        tokens.offer(token("bob", "bobs", 900_000));
        OAuthBearerToken second = ask(handler);

        assertThat(first.value()).isEqualTo("first");
        assertThat(first.principalName()).isEqualTo("alice");
        assertThat(first.lifetimeMs()).isEqualTo(clock.millis + 60_000);
        assertThat(second.value()).isEqualTo("fresher");
    }

    @Test
    void aTokenExpiringEarlierDoesNotReplaceTheHeldOne() throws Exception {
        CallerTokenCallbackHandler handler = handlerFor(tokens.offer(token("alice", "longer", 600_000)));

        tokens.offer(token("alice", "shorter", 60_000));

        assertThat(ask(handler).value()).isEqualTo("longer");
        assertThat(tokens.current("alice")).map(CallerToken::value).contains("longer");
    }

    @Test
    void anExpiredTokenIsNeverHandedOut() throws Exception {
        KafkaLogin login = tokens.offer(token("alice", "short", 60_000));
        CallerTokenCallbackHandler handler = handlerFor(login);
        assertThat(tokens.expired(login)).isFalse();

        clock.millis += 60_000;

        assertThat(tokens.expired(login)).isTrue();
        assertThat(tokens.current("alice")).isEmpty();
        assertThatThrownBy(() -> ask(handler)).isInstanceOf(IOException.class)
            .hasMessageContaining("User:alice").hasMessageNotContaining("short");
        // A fresher token brings the caller back.
        tokens.offer(token("alice", "renewed", 60_000));
        assertThat(tokens.expired(login)).isFalse();
        assertThat(ask(handler).value()).isEqualTo("renewed");
    }

    @Test
    void everyTokenGivenIsADistinctObject() throws Exception {
        // Kafka drops the previous login's token from the Subject's credential set on refresh.
        CallerTokenCallbackHandler handler = handlerFor(tokens.offer(token("alice", "same", 60_000)));

        assertThat(ask(handler)).isNotEqualTo(ask(handler));
    }

    @Test
    void aClosedStoreGivesNoToken() {
        KafkaLogin login = tokens.offer(token("alice", "t", 60_000));
        CallerTokenCallbackHandler handler = handlerFor(login);

        tokens.close();

        assertThat(BearerTokens.registered(tokens.id())).isEmpty();
        assertThatThrownBy(() -> ask(handler)).isInstanceOf(IOException.class);
    }

    @Test
    void otherLoginsNeverExpire() {
        assertThat(tokens.expired(KafkaLogin.of("alice", "pw", "fp"))).isFalse();
        assertThat(tokens.expired(KafkaLogin.SERVICE)).isFalse();
        assertThat(tokens.expired(KafkaLogin.bearer("alice", "another-store"))).isFalse();
        assertThat(tokens.expired(KafkaLogin.bearer("alice", tokens.id()))).isTrue();
    }

    @Test
    void aTokensTextShowsNoValue() {
        CallerToken token = token("alice", "header.payload.signature-Zq", 60_000);

        assertThat(token.toString()).contains("alice").doesNotContain("signature-Zq");
        assertThat(token.asKafkaToken().toString()).doesNotContain("signature-Zq");
    }

    @Test
    void aSubjectCannotRewriteTheJaasTextToTakeAnotherCallersToken() throws Exception {
        // A sub claim is the issuer's text, not ours: a line break ends a quoted JAAS value, and what
        // follows would be parsed as further options, the last of a name winning.
        tokens.offer(token("bob", "bobs-token", 600_000));
        List<String> subjects = List.of(
            "mallory\ntributarySubject='bob';//",
            "mallory\rtributarySubject='bob';//",
            "mallory\r\ntributarySubject='bob';//",
            "mallory\ntributaryTokenStore='x' tributarySubject='bob';//");
        for (String subject : subjects) {
            KafkaLogin login = tokens.offer(token(subject, "mallorys-token", 600_000));

            CallerTokenCallbackHandler handler = handlerFor(login);

            assertThat(ask(handler).value()).as(subject).isEqualTo("mallorys-token");
            assertThat(ask(handler).principalName()).as(subject).isEqualTo(subject);
        }
    }

    @Test
    void anyPasswordOrSubjectSurvivesTheJaasTextUnchanged() {
        for (String text : List.of("a\"b", "a\\b", "a\\", "a\nb", "a\rb", "a\tb", "a'b", "a;b//c", "a/*b*/c",
                "\u00e9\u4e2d\u0001\u007f", "a\\nb", "\\\"")) {
            Map<String, Object> bearer = options(KafkaLogin.bearer(text, tokens.id()));
            assertThat(bearer.get(CallerTokenCallbackHandler.SUBJECT_OPTION)).as(text).isEqualTo(text);
            assertThat(bearer.get(CallerTokenCallbackHandler.STORE_OPTION)).as(text).isEqualTo(tokens.id());

            Map<String, Object> basic = options(KafkaLogin.of(text, text + "pw", "fp"));
            assertThat(basic).as(text).isEqualTo(Map.of("username", text, "password", text + "pw"));
        }
    }

    private static Map<String, Object> options(KafkaLogin login) {
        Map<String, Object> sasl = login.saslSettings("SCRAM-SHA-512");
        JaasContext context = JaasContext.loadClientContext(Map.of(SaslConfigs.SASL_JAAS_CONFIG,
            new Password((String) sasl.get(SaslConfigs.SASL_JAAS_CONFIG))));
        assertThat(context.configurationEntries()).hasSize(1);
        return Map.copyOf(context.configurationEntries().get(0).getOptions());
    }

    @Test
    void theHandlerWantsItsJaasOptions() {
        AppConfigurationEntry bare = new AppConfigurationEntry(
            "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule",
            AppConfigurationEntry.LoginModuleControlFlag.REQUIRED, Map.of());

        assertThatThrownBy(() -> new CallerTokenCallbackHandler().configure(Map.of(), "OAUTHBEARER", List.of(bare)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(CallerTokenCallbackHandler.STORE_OPTION);
        assertThatThrownBy(() -> new CallerTokenCallbackHandler().configure(Map.of(), "PLAIN", List.of(bare)))
            .isInstanceOf(IllegalArgumentException.class);
    }
}
