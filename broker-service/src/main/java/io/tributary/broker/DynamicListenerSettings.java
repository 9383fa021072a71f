package io.tributary.broker;

import io.tributary.broker.config.DynamicBrokerConfig;
import io.tributary.broker.network.ConnectionLimits;
import io.tributary.broker.network.ConnectionQuotas;
import io.tributary.broker.security.ListenerSecurity;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dynamic broker settings of the listeners (KIP-226): connection limits (KIP-402, KIP-612)
 * and a listener's TLS stores, checked before they are stored and applied when they change.
 * Changes arrive on the ZooKeeper watch thread, never an event loop.
 */
final class DynamicListenerSettings {

    private static final Logger log = LoggerFactory.getLogger(DynamicListenerSettings.class);

    private DynamicListenerSettings() {
    }

    /** Checks connection limits before they are stored, and applies them to the quotas when they change. */
    static void bindConnectionLimits(DynamicBrokerConfig dynamicConfig, ConnectionQuotas connectionQuotas) {
        dynamicConfig.addValidator(DynamicListenerSettings::connectionLimits);
        dynamicConfig.addListener(() -> {
            try {
                ConnectionLimits limits = connectionLimits(dynamicConfig);
                if (!limits.equals(connectionQuotas.limits())) {
                    connectionQuotas.updateLimits(limits); // may resolve host names: never on an event loop
                }
            } catch (RuntimeException e) {
                log.error("Ignoring the connection limits in the dynamic broker configs: {}", e.getMessage());
            }
        });
    }

    /**
     * A TLS listener's stores as dynamic broker configs of this broker
     * ({@code listener.name.<listener>.ssl.*}, KIP-226): checked by loading them before they are
     * stored, served to new connections once stored, and from the start after a restart.
     */
    static void bindSsl(DynamicBrokerConfig dynamicConfig, ListenerSecurity listener) {
        String name = listener.listenerName();
        dynamicConfig.addValidator(preview -> {
            Map<String, String> next = preview.listenerSslConfigs(name);
            if (!next.equals(dynamicConfig.listenerSslConfigs(name))) {
                listener.validateSslReconfiguration(next);
            }
        });
        Runnable apply = () -> {
            try {
                if (listener.reconfigureSsl(dynamicConfig.listenerSslConfigs(name))) {
                    log.info("Listener {} serves the TLS stores of its dynamic configs to new connections", name);
                }
            } catch (RuntimeException e) {
                log.error("Listener {} keeps its TLS stores: the dynamic ones were refused: {}", name, e.getMessage());
            }
        };
        apply.run();
        dynamicConfig.addListener(apply);
    }

    /**
     * The connection limits in effect (KIP-402, KIP-612): {@code max.connections},
     * {@code max.connections.per.ip} and its overrides, {@code max.connection.creation.rate}, and the
     * listener-prefixed ones, from the dynamic configs, else the static settings, else Kafka's defaults.
     *
     * @throws IllegalArgumentException limits Kafka refuses (per-IP 0 without overrides, a bad override)
     */
    static ConnectionLimits connectionLimits(DynamicBrokerConfig config) {
        return new ConnectionLimits(config.brokerLevelInt("max.connections"), config.perListenerInts("max.connections"),
            config.brokerLevelInt("max.connections.per.ip"), io.tributary.broker.config.ListSettings.parseMaxConnectionsPerIpOverrides(
                (String) config.brokerLevelValue("max.connections.per.ip.overrides")),
            config.brokerLevelInt("max.connection.creation.rate"),
            config.perListenerInts("max.connection.creation.rate"));
    }
}
