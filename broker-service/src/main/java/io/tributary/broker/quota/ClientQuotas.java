package io.tributary.broker.quota;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.common.utils.Time;

/**
 * The broker's client quotas: where they are kept ({@link ClientQuotaStore}) and the byte-rate
 * quotas enforced on produce ({@code producer_byte_rate}) and on consumers' fetches
 * ({@code consumer_byte_rate}), the controller mutations of CreateTopics, CreatePartitions and
 * DeleteTopics ({@code controller_mutation_rate}, KIP-599), and the request handler time of every
 * request ({@code request_percentage}, KIP-124).
 */
public record ClientQuotas(ClientQuotaStore store, ClientQuotaManager produce, ClientQuotaManager fetch,
                           ClientQuotaManager controllerMutation, ClientQuotaManager request) {

    /**
     * @param windows       {@code quota.window.num}
     * @param windowSeconds {@code quota.window.size.seconds}
     */
    public static ClientQuotas create(ClientQuotaStore store, int windows, int windowSeconds, Time time,
                                      MeterRegistry registry) {
        return new ClientQuotas(store, new ClientQuotaManager(QuotaType.PRODUCE, store, windows, windowSeconds, time,
            registry), new ClientQuotaManager(QuotaType.FETCH, store, windows, windowSeconds, time, registry),
            new ClientQuotaManager(QuotaType.CONTROLLER_MUTATION, store, windows, windowSeconds, time, registry),
            new ClientQuotaManager(QuotaType.REQUEST, store, windows, windowSeconds, time, registry));
    }
}
