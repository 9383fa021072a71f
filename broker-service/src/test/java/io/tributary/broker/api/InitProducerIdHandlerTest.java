package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.coordinator.InMemoryCoordinatorLog;
import io.tributary.broker.producer.ProducerIdManager;
import io.tributary.broker.security.BrokerAuthorizer;
import io.tributary.broker.testing.MockTime;
import io.tributary.broker.transaction.TransactionCoordinator;
import io.tributary.broker.transaction.TransactionStateManager;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.InitProducerIdRequest;
import org.apache.kafka.common.requests.InitProducerIdResponse;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link InitProducerIdHandler} over a counting {@link ProducerIdManager} and Kafka's
 * StandardAuthorizer: an idempotent producer gets a fresh id at epoch 0, also when it asks to bump
 * the id it has (KIP-360); a transactional id goes to the transaction coordinator, with WRITE on
 * it (TRANSACTIONAL_ID_AUTHORIZATION_FAILED otherwise); without IDEMPOTENT_WRITE on the
 * cluster or WRITE on some topic (KIP-679) it is CLUSTER_AUTHORIZATION_FAILED. Refusals take no id.
 * The handler runs on the request-handler pool, since taking an id may wait on ZooKeeper.
 */
class InitProducerIdHandlerTest {

    private final CountingProducerIds ids = new CountingProducerIds(4000);
    private final BrokerAuthorizer authorizer = BrokerAuthorizer.standard("User:admin", false);
    private final TransactionStateManager transactionState = new TransactionStateManager(new InMemoryCoordinatorLog(),
        50, 5_000, new MockTime());
    private final InitProducerIdHandler handler = new InitProducerIdHandler(ids, new TransactionCoordinator(
        transactionState, (pid, epoch, coordinatorEpoch, commit, partitions, current) -> new CompletableFuture<>(), ids,
        900_000, new MockTime()), authorizer);

    @AfterEach
    void closeAuthorizer() throws Exception {
        authorizer.close();
        transactionState.shutdown();
    }

    /** Hands out ids counting up. */
    private static final class CountingProducerIds implements ProducerIdManager {

        private long next;
        private int handedOut;

        CountingProducerIds(long first) {
            this.next = first;
        }

        @Override
        public long generateProducerId() {
            handedOut++;
            return next++;
        }
    }

    private static InitProducerIdRequest idempotent() {
        return new InitProducerIdRequest.Builder(new InitProducerIdRequestData().setTransactionalId(null)
            .setTransactionTimeoutMs(Integer.MAX_VALUE)).build((short) 4);
    }

    private void allowAlice(ResourceType type, String name, AclOperation operation) {
        authorizer.aclsChanged(List.of(new AclBinding(new ResourcePattern(type, name, PatternType.LITERAL),
            new AccessControlEntry(Wire.ALICE.toString(), "*", operation, AclPermissionType.ALLOW))), List.of());
    }

    private InitProducerIdResponse exchange(InitProducerIdRequest request) {
        return Wire.exchange(handler, request, Wire.ALICE);
    }

    @Test
    void anIdempotentProducerGetsAFreshIdAtEpochZero() {
        allowAlice(ResourceType.CLUSTER, BrokerAuthorizer.CLUSTER_NAME, AclOperation.IDEMPOTENT_WRITE);

        InitProducerIdResponse first = exchange(idempotent());
        InitProducerIdResponse second = exchange(idempotent());

        assertThat(first.error()).isEqualTo(Errors.NONE);
        assertThat(first.data().producerId()).isEqualTo(4000);
        assertThat(first.data().producerEpoch()).isZero();
        assertThat(second.data().producerId()).isEqualTo(4001);
        assertThat(first.throttleTimeMs()).isZero();
    }

    @Test
    void aBumpOfAnExistingIdGetsAFreshIdAtEpochZero() {
        allowAlice(ResourceType.CLUSTER, BrokerAuthorizer.CLUSTER_NAME, AclOperation.IDEMPOTENT_WRITE);
        InitProducerIdRequest bump = new InitProducerIdRequest.Builder(new InitProducerIdRequestData()
            .setTransactionalId(null).setTransactionTimeoutMs(Integer.MAX_VALUE).setProducerId(17)
            .setProducerEpoch((short) 3)).build((short) 4);

        InitProducerIdResponse response = exchange(bump);

        assertThat(response.error()).isEqualTo(Errors.NONE);
        assertThat(response.data().producerId()).isEqualTo(4000);
        assertThat(response.data().producerEpoch()).isZero();
    }

    @Test
    void writeOnAnyTopicIsEnough() {
        allowAlice(ResourceType.TOPIC, "orders", AclOperation.WRITE);

        InitProducerIdResponse response = exchange(idempotent());

        assertThat(response.error()).isEqualTo(Errors.NONE);
        assertThat(ids.handedOut).isEqualTo(1);
    }

    @Test
    void withoutIdempotentWriteOrTopicWriteItIsClusterAuthorizationFailed() {
        allowAlice(ResourceType.TOPIC, "orders", AclOperation.READ);

        InitProducerIdResponse response = exchange(idempotent());

        assertThat(response.error()).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED);
        assertThat(response.data().producerId()).isEqualTo(-1);
        assertThat(response.data().producerEpoch()).isEqualTo((short) -1);
        assertThat(ids.handedOut).isZero();
    }

    @Test
    void aTransactionalIdGoesToTheTransactionCoordinatorWithWriteOnIt() {
        InitProducerIdRequest transactional = new InitProducerIdRequest.Builder(new InitProducerIdRequestData()
            .setTransactionalId("tx-1").setTransactionTimeoutMs(60_000)).build((short) 4);

        InitProducerIdResponse refused = exchange(transactional);
        allowAlice(ResourceType.TRANSACTIONAL_ID, "tx-1", AclOperation.WRITE);
        InitProducerIdResponse allowed = exchange(transactional);

        assertThat(refused.error()).isEqualTo(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        assertThat(allowed.error()).as("this broker's coordinator has not loaded the id's partition")
            .isEqualTo(Errors.NOT_COORDINATOR);
        assertThat(allowed.data().producerId()).isEqualTo(-1);
        assertThat(ids.handedOut).isZero();
    }
}
