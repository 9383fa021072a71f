package io.tributary.broker.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * The bootstrap and secret settings bind from the environment variables the Helm chart sets
 * (Spring's environment form), values with commas, semicolons and quotes intact.
 */
class BrokerBootstrapPropertiesTest {

    private static Binder environment(Map<String, Object> variables) {
        MutablePropertySources sources = new MutablePropertySources();
        sources.addLast(new SystemEnvironmentPropertySource("systemEnvironment", variables));
        return new Binder(ConfigurationPropertySources.from(sources));
    }

    @Test
    void bindsFromTheChartsEnvironmentVariables() {
        String users = "SCRAM-SHA-512=[name=\"broker\",password-file=/etc/tributary-users/0/password];"
            + "SCRAM-SHA-256=[name=\"admin\",password-file=/etc/tributary-users/1/password]";
        String acls = "principal=User:a, host=*, operation=Read, permission=Allow, resource-type=Topic, resource-name=t, pattern-type=Literal\n"
            + "principal=User:b, host=*, operation=Write, permission=Allow, resource-type=Topic, resource-name=t, pattern-type=Literal";
        String jaas = "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"broker\" password=\"pw\";";
        Binder binder = environment(Map.of("BROKER_BOOTSTRAP_SCRAM_USERS", users, "BROKER_BOOTSTRAP_ACLS", acls,
            "BROKER_SASL_JAAS_CONFIG", jaas, "BROKER_SSL_KEYSTORE_PASSWORD", "ks-pw", "BROKER_SSL_TRUSTSTORE_PASSWORD", "ts-pw"));
        BrokerBootstrapProperties bootstrap = binder.bindOrCreate("broker", Bindable.of(BrokerBootstrapProperties.class));
        assertThat(bootstrap.bootstrapScramUsers()).isEqualTo(users);
        assertThat(bootstrap.bootstrapAcls()).isEqualTo(acls);
        assertThat(bootstrap.toString()).doesNotContain("password-file").doesNotContain("broker\"");
        BrokerSecurityProperties security = binder.bindOrCreate("broker", Bindable.of(BrokerSecurityProperties.class));
        assertThat(security.saslJaasConfig()).isEqualTo(jaas);
        assertThat(security.sslKeystorePassword()).isEqualTo("ks-pw");
        assertThat(security.sslTruststorePassword()).isEqualTo("ts-pw");
    }

    @Test
    void noneHasNothingToWrite() {
        assertThat(BrokerBootstrapProperties.none()).isEqualTo(BrokerBootstrapProperties.bind(Map.of()));
    }
}
