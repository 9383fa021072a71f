package io.tributary.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.broker.security.ListenerSecurity;
import io.tributary.broker.security.RedactingJwtValidator;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.security.authenticator.CredentialCache;
import org.junit.jupiter.api.Test;

/** TLS and SASL settings: what a secured listener needs is checked when it starts, and nothing leaks. */
class BrokerSecurityPropertiesTest {

    private static ListenerSecurity listener(SecurityProtocol protocol, Map<String, String> settings) {
        return new ListenerSecurity(new EndPoint("L", protocol, "127.0.0.1", 0), BrokerSecurityProperties.bind(settings),
            new CredentialCache(), new SimpleMeterRegistry());
    }

    @Test
    void anSslListenerWithoutAKeyStoreIsRefused() {
        assertThatThrownBy(() -> listener(SecurityProtocol.SSL, Map.of()))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("broker.ssl-keystore-location");
        assertThatThrownBy(() -> listener(SecurityProtocol.SASL_SSL, Map.of()))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no key store");
    }

    @Test
    void plainWithoutUsersIsRefused() {
        assertThatThrownBy(() -> listener(SecurityProtocol.SASL_PLAINTEXT,
                Map.of("broker.sasl-enabled-mechanisms", "PLAIN")))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PlainLoginModule");
    }

    @Test
    void mechanismsThisBrokerDoesNotServeAreRefused() {
        assertThatThrownBy(() -> BrokerSecurityProperties.bind(Map.of("broker.sasl-enabled-mechanisms", "GSSAPI")))
            .rootCause().hasMessageContaining("GSSAPI");
        assertThatThrownBy(() -> BrokerSecurityProperties.bind(
                Map.of("broker.sasl-mechanism-inter-broker-protocol", "GSSAPI")))
            .rootCause().hasMessageContaining("GSSAPI");
        assertThatThrownBy(() -> BrokerSecurityProperties.bind(Map.of("broker.ssl-client-auth", "require")))
            .as("a typo must not turn mTLS off").rootCause().hasMessageContaining("none, requested or required");
    }

    @Test
    void aSaslInterBrokerListenerNeedsTheBrokersLogin() {
        BrokerSecurityProperties security = BrokerSecurityProperties.defaults();
        assertThatThrownBy(() -> security.clientConfigs(SecurityProtocol.SASL_PLAINTEXT, "INTERNAL"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("broker.sasl-jaas-config");
    }

    @Test
    void theListenersOwnJaasEntryWinsAndPasswordsStayHidden() {
        BrokerSecurityProperties security = BrokerSecurityProperties.bind(Map.of(
            "broker.sasl-jaas-config", "global-entry",
            "broker.listener-sasl-jaas-config[internal.scram-sha-512]",
            "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"b\" password=\"pw-123\";",
            "broker.ssl-keystore-password", "store-secret-456",
            "broker.ssl-key-password", "key-secret-789"));
        assertThat(security.jaasConfig("INTERNAL", "SCRAM-SHA-512")).contains("ScramLoginModule");
        assertThat(security.jaasConfig("EXTERNAL", "SCRAM-SHA-512")).isEqualTo("global-entry");
        Map<String, Object> client = security.clientConfigs(SecurityProtocol.SASL_PLAINTEXT, "INTERNAL");
        assertThat(client).containsEntry("sasl.mechanism", "SCRAM-SHA-512");
        assertThat(client.get("sasl.jaas.config")).isInstanceOf(Password.class);
        assertThat(client.toString()).doesNotContain("pw-123");
        assertThat(security.toString()).doesNotContain("pw-123").doesNotContain("store-secret-456")
            .doesNotContain("key-secret-789").doesNotContain("global-entry");
        assertThat(security.sslConfigs().toString()).doesNotContain("store-secret-456").doesNotContain("key-secret-789");
    }

    @Test
    void theOauthBearerSettingsCarryTheValidatorTheSecurityLayerPicks() {
        BrokerSecurityProperties security = BrokerSecurityProperties.bind(Map.of(
            "broker.sasl-oauthbearer-jwks-endpoint-url", "https://issuer.example/jwks",
            "broker.sasl-oauthbearer-expected-audience", "tributary"));
        Map<String, Object> configs = security.oauthBearerConfigs(RedactingJwtValidator.class);
        assertThat(configs).containsEntry(SaslConfigs.SASL_OAUTHBEARER_JWT_VALIDATOR_CLASS, RedactingJwtValidator.class)
            .containsEntry(SaslConfigs.SASL_OAUTHBEARER_JWKS_ENDPOINT_URL, "https://issuer.example/jwks");
        assertThat(configs.get(SaslConfigs.SASL_OAUTHBEARER_EXPECTED_AUDIENCE)).isEqualTo(List.of("tributary"));
    }
}
