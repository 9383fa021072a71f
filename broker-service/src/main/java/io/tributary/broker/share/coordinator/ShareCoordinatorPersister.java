package io.tributary.broker.share.coordinator;

import io.tributary.broker.replica.InterBrokerSender;
import io.tributary.broker.share.PersistedStateBatch;
import io.tributary.broker.share.ShareGroupState;
import io.tributary.broker.share.SharePartitionKey;
import io.tributary.broker.share.ShareStatePersister;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.apache.kafka.common.message.DeleteShareGroupStateRequestData;
import org.apache.kafka.common.message.DeleteShareGroupStateResponseData;
import org.apache.kafka.common.message.InitializeShareGroupStateRequestData;
import org.apache.kafka.common.message.InitializeShareGroupStateResponseData;
import org.apache.kafka.common.message.ReadShareGroupStateRequestData;
import org.apache.kafka.common.message.ReadShareGroupStateResponseData;
import org.apache.kafka.common.message.ReadShareGroupStateSummaryRequestData;
import org.apache.kafka.common.message.ReadShareGroupStateSummaryResponseData;
import org.apache.kafka.common.message.WriteShareGroupStateRequestData;
import org.apache.kafka.common.message.WriteShareGroupStateResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DeleteShareGroupStateRequest;
import org.apache.kafka.common.requests.DeleteShareGroupStateResponse;
import org.apache.kafka.common.requests.InitializeShareGroupStateRequest;
import org.apache.kafka.common.requests.InitializeShareGroupStateResponse;
import org.apache.kafka.common.requests.ReadShareGroupStateRequest;
import org.apache.kafka.common.requests.ReadShareGroupStateResponse;
import org.apache.kafka.common.requests.ReadShareGroupStateSummaryRequest;
import org.apache.kafka.common.requests.ReadShareGroupStateSummaryResponse;
import org.apache.kafka.common.requests.WriteShareGroupStateRequest;
import org.apache.kafka.common.requests.WriteShareGroupStateResponse;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.coordinator.share.ShareGroupOffset;
import org.apache.kafka.server.share.persister.PersisterStateBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable {@link ShareStatePersister} (Kafka's {@code DefaultStatePersister}, KIP-932): each call
 * goes to the share coordinator of the share-partition, the leader of its {@code __share_group_state}
 * partition: {@link ShareCoordinator} directly when that is this broker, else Read/Write/Initialize/
 * DeleteShareGroupState over the inter-broker listener ({@link InterBrokerSender}). While no leader is
 * known the topic is created if missing ({@link ShareStateTopic#ensureCreated}); NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS,
 * COORDINATOR_NOT_AVAILABLE, an unknown leader and a failed send are retried every
 * a backoff that starts at {@code retryBackoffMs} and doubles up to {@link #MAX_RETRY_BACKOFF_MS} until
 * {@code maxRetryMs} has passed, then the future fails with that error.
 * FENCED_LEADER_EPOCH and FENCED_STATE_EPOCH fail at once. An initialize that finds a state of a
 * higher state epoch keeps it (FENCED_STATE_EPOCH is success here: the caller reads it).
 *
 * <p>Thread-safety: thread-safe; never blocks its caller. Retries and topic creation run on its
 * own thread.
 */
public final class ShareCoordinatorPersister implements ShareStatePersister, AutoCloseable {

    /**
     * @param localBrokerId  this broker
     * @param retryBackoffMs wait before the first retry, ms (doubled for each next one)
     * @param maxRetryMs     how long a call keeps retrying, ms
     */
    public record Settings(int localBrokerId, long retryBackoffMs, long maxRetryMs) {
    }

    private record Outcome<T>(Errors error, T value) {
    }

    /** One attempt at a call: on this broker's coordinator ({@code broker == -1}) or sent to {@code broker}. */
    @FunctionalInterface
    private interface Attempt<T> {
        CompletableFuture<Outcome<T>> run(int broker);
    }

    private static final int LOCAL = -1;
    /** The longest wait between two attempts, ms. */
    public static final long MAX_RETRY_BACKOFF_MS = 1_000;
    private static final Logger log = LoggerFactory.getLogger(ShareCoordinatorPersister.class);

    private final Settings settings;
    private final ShareCoordinator coordinator;
    private final IntFunction<OptionalInt> leaderOf;
    private final Runnable ensureStateTopic;
    private final InterBrokerSender remote;
    private final Time time;
    private final ScheduledExecutorService retries;

    /**
     * @param leaderOf the leader of a {@code __share_group_state} partition in the metadata, empty when
     *                 the topic or its leader is unknown
     * @param ensureStateTopic creates {@code __share_group_state} unless it exists (may block: run on
     *                 this persister's thread)
     */
    public ShareCoordinatorPersister(Settings settings, ShareCoordinator coordinator, IntFunction<OptionalInt> leaderOf,
                                     Runnable ensureStateTopic, InterBrokerSender remote, Time time) {
        this.settings = settings;
        this.coordinator = coordinator;
        this.leaderOf = leaderOf;
        this.ensureStateTopic = ensureStateTopic;
        this.remote = remote;
        this.time = time;
        this.retries = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "share-state-persister-" + settings.localBrokerId());
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public CompletableFuture<Optional<ShareGroupState>> readState(SharePartitionKey key) {
        return readState(key, -1);
    }

    @Override
    public CompletableFuture<Optional<ShareGroupState>> readState(SharePartitionKey key, int leaderEpoch) {
        ShareStateKey k = stateKey(key);
        return call(k, broker -> broker == LOCAL
            ? coordinator.read(k, leaderEpoch).thenApply(r -> new Outcome<>(r.error(), r.state().map(
                ShareCoordinatorPersister::toState)))
            : remote.send(broker, new ReadShareGroupStateRequest.Builder(new ReadShareGroupStateRequestData()
                    .setGroupId(k.groupId()).setTopics(List.of(new ReadShareGroupStateRequestData.ReadStateData()
                        .setTopicId(k.topicId()).setPartitions(List.of(new ReadShareGroupStateRequestData.PartitionData()
                            .setPartition(k.partition()).setLeaderEpoch(leaderEpoch)))))))
                .thenApply(response -> {
                    ReadShareGroupStateResponseData.PartitionResult p = ((ReadShareGroupStateResponse) response).data()
                        .results().get(0).partitions().get(0);
                    Optional<ShareGroupState> state = absent(p.stateEpoch(), p.startOffset()) ? Optional.empty()
                        : Optional.of(new ShareGroupState(p.stateEpoch(), leaderEpoch, p.startOffset(),
                            p.stateBatches().stream().map(b -> new PersistedStateBatch(b.firstOffset(), b.lastOffset(),
                                b.deliveryState(), b.deliveryCount())).toList()));
                    return new Outcome<>(Errors.forCode(p.errorCode()), state);
                }));
    }

    @Override
    public CompletableFuture<Optional<ShareGroupState>> readSummary(SharePartitionKey key) {
        ShareStateKey k = stateKey(key);
        return call(k, broker -> broker == LOCAL
            ? coordinator.read(k, -1).thenApply(r -> new Outcome<>(r.error(), r.state().map(s -> new ShareGroupState(
                s.stateEpoch(), s.leaderEpoch(), s.startOffset(), List.of(), s.deliveryCompleteCount()))))
            : remote.send(broker, new ReadShareGroupStateSummaryRequest.Builder(new ReadShareGroupStateSummaryRequestData()
                    .setGroupId(k.groupId()).setTopics(List.of(new ReadShareGroupStateSummaryRequestData.ReadStateSummaryData()
                        .setTopicId(k.topicId()).setPartitions(List.of(
                            new ReadShareGroupStateSummaryRequestData.PartitionData().setPartition(k.partition())))))))
                .thenApply(response -> {
                    ReadShareGroupStateSummaryResponseData.PartitionResult p = ((ReadShareGroupStateSummaryResponse) response)
                        .data().results().get(0).partitions().get(0);
                    Optional<ShareGroupState> state = absent(p.stateEpoch(), p.startOffset()) ? Optional.empty()
                        : Optional.of(new ShareGroupState(p.stateEpoch(), p.leaderEpoch(), p.startOffset(), List.of(),
                            p.deliveryCompleteCount())); // -1 from a v0 answer
                    return new Outcome<>(Errors.forCode(p.errorCode()), state);
                }));
    }

    @Override
    public CompletableFuture<Void> initializeState(SharePartitionKey key, ShareGroupState state) {
        ShareStateKey k = stateKey(key);
        return call(k, broker -> (broker == LOCAL
            ? coordinator.initialize(k, state.stateEpoch(), state.startOffset())
            : remote.send(broker, new InitializeShareGroupStateRequest.Builder(new InitializeShareGroupStateRequestData()
                    .setGroupId(k.groupId()).setTopics(List.of(new InitializeShareGroupStateRequestData.InitializeStateData()
                        .setTopicId(k.topicId()).setPartitions(List.of(
                            new InitializeShareGroupStateRequestData.PartitionData().setPartition(k.partition())
                                .setStateEpoch(state.stateEpoch()).setStartOffset(state.startOffset())))))))
                .thenApply(response -> {
                    InitializeShareGroupStateResponseData.PartitionResult p = ((InitializeShareGroupStateResponse) response)
                        .data().results().get(0).partitions().get(0);
                    return Errors.forCode(p.errorCode());
                }))
            .thenApply(error -> new Outcome<Void>(error == Errors.FENCED_STATE_EPOCH ? Errors.NONE : error, null)));
    }

    @Override
    public CompletableFuture<Void> writeState(SharePartitionKey key, ShareGroupState state) {
        ShareStateKey k = stateKey(key);
        List<PersisterStateBatch> batches = state.stateBatches().stream().map(b -> new PersisterStateBatch(
            b.firstOffset(), b.lastOffset(), b.deliveryState(), b.deliveryCount())).toList();
        return call(k, broker -> (broker == LOCAL
            ? coordinator.write(k, state.stateEpoch(), state.leaderEpoch(), state.startOffset(),
                state.deliveryCompleteCount(), batches)
            : remote.send(broker, new WriteShareGroupStateRequest.Builder(new WriteShareGroupStateRequestData()
                    .setGroupId(k.groupId()).setTopics(List.of(new WriteShareGroupStateRequestData.WriteStateData()
                        .setTopicId(k.topicId()).setPartitions(List.of(new WriteShareGroupStateRequestData.PartitionData()
                            .setPartition(k.partition()).setStateEpoch(state.stateEpoch())
                            .setLeaderEpoch(state.leaderEpoch()).setStartOffset(state.startOffset())
                            .setDeliveryCompleteCount(state.deliveryCompleteCount())
                            .setStateBatches(batches.stream().map(b -> new WriteShareGroupStateRequestData.StateBatch()
                                .setFirstOffset(b.firstOffset()).setLastOffset(b.lastOffset())
                                .setDeliveryState(b.deliveryState()).setDeliveryCount(b.deliveryCount())).toList())))))))
                .thenApply(response -> {
                    WriteShareGroupStateResponseData.PartitionResult p = ((WriteShareGroupStateResponse) response).data()
                        .results().get(0).partitions().get(0);
                    return Errors.forCode(p.errorCode());
                }))
            .thenApply(error -> new Outcome<Void>(error, null)));
    }

    @Override
    public CompletableFuture<Void> deleteState(SharePartitionKey key) {
        ShareStateKey k = stateKey(key);
        return call(k, broker -> (broker == LOCAL
            ? coordinator.delete(k)
            : remote.send(broker, new DeleteShareGroupStateRequest.Builder(new DeleteShareGroupStateRequestData()
                    .setGroupId(k.groupId()).setTopics(List.of(new DeleteShareGroupStateRequestData.DeleteStateData()
                        .setTopicId(k.topicId()).setPartitions(List.of(
                            new DeleteShareGroupStateRequestData.PartitionData().setPartition(k.partition())))))))
                .thenApply(response -> {
                    DeleteShareGroupStateResponseData.PartitionResult p = ((DeleteShareGroupStateResponse) response).data()
                        .results().get(0).partitions().get(0);
                    return Errors.forCode(p.errorCode());
                }))
            .thenApply(error -> new Outcome<Void>(error, null)));
    }

    private <T> CompletableFuture<T> call(ShareStateKey key, Attempt<T> attempt) {
        CompletableFuture<T> result = new CompletableFuture<>();
        attempt(key, attempt, result, time.milliseconds() + settings.maxRetryMs(), 0);
        return result;
    }

    private <T> void attempt(ShareStateKey key, Attempt<T> attempt, CompletableFuture<T> result, long deadlineMs,
                             int retry) {
        OptionalInt leader = leaderOf.apply(coordinator.partitionFor(key));
        CompletableFuture<Outcome<T>> sent;
        if (leader.isEmpty()) {
            sent = CompletableFuture.completedFuture(new Outcome<>(Errors.COORDINATOR_NOT_AVAILABLE, null));
            execute(ensureStateTopic);
        } else {
            try {
                sent = attempt.run(leader.getAsInt() == settings.localBrokerId() ? LOCAL : leader.getAsInt());
            } catch (RuntimeException e) {
                sent = CompletableFuture.failedFuture(e);
            }
        }
        sent.whenComplete((outcome, failure) -> {
            Errors error = failure != null ? Errors.COORDINATOR_NOT_AVAILABLE : outcome.error();
            if (error == Errors.NONE) {
                result.complete(outcome.value());
            } else if (retriable(error) && time.milliseconds() < deadlineMs) {
                try {
                    long backoffMs = Math.min(MAX_RETRY_BACKOFF_MS, settings.retryBackoffMs() << Math.min(retry, 10));
                    retries.schedule(() -> attempt(key, attempt, result, deadlineMs, retry + 1), backoffMs,
                        TimeUnit.MILLISECONDS);
                } catch (RejectedExecutionException e) {
                    result.completeExceptionally(Errors.COORDINATOR_NOT_AVAILABLE.exception("Shutting down"));
                }
            } else {
                result.completeExceptionally(error.exception("Share coordinator call for " + key.coordinatorKey()
                    + " failed: " + error.message()));
            }
        });
    }

    private void execute(Runnable task) {
        try {
            retries.execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    log.warn("Could not create {}: {}", org.apache.kafka.common.internals.Topic.SHARE_GROUP_STATE_TOPIC_NAME,
                        e.toString());
                }
            });
        } catch (RejectedExecutionException e) {
            // closed: the call fails once its retries are refused
        }
    }

    private static boolean retriable(Errors error) {
        return error == Errors.NOT_COORDINATOR || error == Errors.COORDINATOR_LOAD_IN_PROGRESS
            || error == Errors.COORDINATOR_NOT_AVAILABLE;
    }

    private static ShareStateKey stateKey(SharePartitionKey key) {
        return new ShareStateKey(key.groupId(), key.partition().topicId(), key.partition().partition());
    }

    /**
     * Whether a remote read answered "no state" (state epoch 0, start offset -1). State the group
     * coordinator initialized without a start offset (-1) has a state epoch of at least 1 and is present.
     */
    private static boolean absent(int stateEpoch, long startOffset) {
        return startOffset < 0 && stateEpoch <= 0;
    }

    private static ShareGroupState toState(ShareGroupOffset offset) {
        return new ShareGroupState(offset.stateEpoch(), offset.leaderEpoch(), offset.startOffset(),
            offset.stateBatches().stream().map(b -> new PersistedStateBatch(b.firstOffset(), b.lastOffset(),
                b.deliveryState(), b.deliveryCount())).toList());
    }

    /** Stops retrying (pending calls fail) and closes the connections to other brokers. */
    @Override
    public void close() {
        retries.shutdownNow();
        remote.close();
    }
}
