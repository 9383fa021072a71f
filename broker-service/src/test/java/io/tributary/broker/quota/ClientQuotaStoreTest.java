package io.tributary.broker.quota;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * How {@link ClientQuotaStore} reads ZooKeeper paths as entities: names sanitized as Kafka
 * sanitizes them, {@code <default>} the default, and a client literally named {@code <default>}
 * (stored as {@code %3Cdefault%3E}) a name like any other.
 */
class ClientQuotaStoreTest {

    @Test
    void pathsAreEntitiesAndTheDefaultIsNoName() {
        assertThat(ClientQuotaStore.entityOf("/config/users/alice")).isEqualTo(new ClientQuotaEntity("alice", null));
        assertThat(ClientQuotaStore.entityOf("/config/users/User%3Aalice/clients/app"))
            .isEqualTo(new ClientQuotaEntity("User:alice", "app"));
        assertThat(ClientQuotaStore.entityOf("/config/clients/<default>"))
            .isEqualTo(new ClientQuotaEntity(null, ClientQuotaEntity.DEFAULT));
        assertThat(ClientQuotaStore.entityOf("/config/clients/%3Cdefault%3E"))
            .isEqualTo(new ClientQuotaEntity(null, "<default>"));
        assertThat(new ClientQuotaEntity(null, "<default>").toWire()).containsEntry("client-id", "<default>");
        assertThat(new ClientQuotaEntity(null, ClientQuotaEntity.DEFAULT).toWire()).containsEntry("client-id", null);
        assertThat(ClientQuotaStore.entityOf("/config/users/alice/clients")).isNull();
    }
}
