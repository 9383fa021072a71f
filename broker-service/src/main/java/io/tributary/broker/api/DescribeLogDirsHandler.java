package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.replica.LogDirInfo;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DescribeLogDirsRequestData;
import org.apache.kafka.common.message.DescribeLogDirsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.DescribeLogDirsRequest;
import org.apache.kafka.common.requests.DescribeLogDirsResponse;

/**
 * DescribeLogDirs (v1-4): each log directory with the size in bytes of every (requested)
 * partition in it and, from v4, the directory's total and usable bytes. Used by
 * {@code kafka-log-dirs} and the admin UI. Needs DESCRIBE on the cluster: otherwise
 * CLUSTER_AUTHORIZATION_FAILED at the top level and no directories, as Kafka.
 */
public final class DescribeLogDirsHandler extends VersionedHandler {

    private final ReplicaManager replicaManager;
    private final BrokerAuthorizer authorizer;

    public DescribeLogDirsHandler(ReplicaManager replicaManager, BrokerAuthorizer authorizer) {
        super(ApiKeys.DESCRIBE_LOG_DIRS, 1, 4);
        this.replicaManager = replicaManager;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        DescribeLogDirsRequest request = (DescribeLogDirsRequest) r;
        if (!authorizer.authorizeCluster(context, AclOperation.DESCRIBE)) {
            return Responses.completed(context, new DescribeLogDirsResponse(new DescribeLogDirsResponseData()
                .setThrottleTimeMs(0).setErrorCode(Errors.CLUSTER_AUTHORIZATION_FAILED.code())));
        }
        Set<TopicPartition> wanted = null;
        if (request.data().topics() != null) {
            wanted = new HashSet<>();
            for (DescribeLogDirsRequestData.DescribableLogDirTopic t : request.data().topics()) {
                for (int p : t.partitions()) {
                    wanted.add(new TopicPartition(t.topic(), p));
                }
            }
        }
        DescribeLogDirsResponseData data = new DescribeLogDirsResponseData().setThrottleTimeMs(0)
            .setErrorCode(Errors.NONE.code());
        for (LogDirInfo dir : replicaManager.describeLogDirs()) {
            DescribeLogDirsResponseData.DescribeLogDirsResult result = new DescribeLogDirsResponseData.DescribeLogDirsResult()
                .setErrorCode(dir.offline() ? Errors.KAFKA_STORAGE_ERROR.code() : Errors.NONE.code()).setLogDir(dir.path())
                .setTotalBytes(dir.offline() ? -1 : dir.totalBytes()).setUsableBytes(dir.offline() ? -1 : dir.usableBytes());
            Map<String, DescribeLogDirsResponseData.DescribeLogDirsTopic> topics = new LinkedHashMap<>();
            for (Map.Entry<TopicPartition, Long> e : dir.partitions().entrySet()) {
                if (wanted != null && !wanted.contains(e.getKey())) {
                    continue;
                }
                topics.computeIfAbsent(e.getKey().topic(), n -> new DescribeLogDirsResponseData.DescribeLogDirsTopic().setName(n))
                    .partitions().add(new DescribeLogDirsResponseData.DescribeLogDirsPartition()
                        .setPartitionIndex(e.getKey().partition()).setPartitionSize(e.getValue()).setOffsetLag(0)
                        .setIsFutureKey(false));
            }
            result.topics().addAll(topics.values());
            data.results().add(result);
        }
        return Responses.completed(context, new DescribeLogDirsResponse(data));
    }
}
