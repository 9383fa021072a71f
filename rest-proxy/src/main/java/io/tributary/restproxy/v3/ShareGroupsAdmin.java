package io.tributary.restproxy.v3;

import io.tributary.restproxy.error.InvalidArgumentException;
import io.tributary.restproxy.error.KafkaErrors;
import io.tributary.restproxy.error.KafkaFutures;
import io.tributary.restproxy.error.KafkaOperationException;
import io.tributary.restproxy.error.RestException;
import io.tributary.restproxy.error.ShareGroupNotEmptyException;
import io.tributary.restproxy.error.ShareGroupNotFoundException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeShareGroupsOptions;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsResult;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ShareGroupDescription;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.springframework.stereotype.Service;

/**
 * The Admin client operations behind the v3 share group endpoints (KIP-932): list
 * (ListGroups of type SHARE), describe (ShareGroupDescribe), delete (DeleteGroups), the group's
 * {@code share.*} configs (DescribeConfigs and IncrementalAlterConfigs on the GROUP resource) and
 * its start offsets (DescribeShareGroupOffsets). Runs as the caller (the injected Admin is
 * caller-bound), so the brokers' ACLs decide what each HTTP user may see and do.
 *
 * <p>Knows nothing of HTTP; failures are {@link ShareGroupNotFoundException},
 * {@link ShareGroupNotEmptyException}, {@link InvalidArgumentException} for a config name outside
 * {@code share.*} or a value the brokers refuse, else those {@link KafkaFutures} makes (a broker
 * that does not serve DescribeShareGroupOffsets yet gives an {@code UnsupportedVersionException}).
 * Thread-safe.
 */
@Service
public class ShareGroupsAdmin {

    /** Prefix of the group configs that apply to share groups ({@code share.auto.offset.reset}, ...). */
    public static final String SHARE_CONFIG_PREFIX = "share.";

    private final Admin admin;

    public ShareGroupsAdmin(Admin admin) {
        this.admin = admin;
    }

    /**
     * Every share group the caller may describe, described in one ShareGroupDescribe round
     * (batched per coordinator by the Admin client); a group gone since it was listed is left out,
     * and so is one whose description the brokers refuse the caller (its members use a topic the
     * caller may not describe), rather than failing the whole list. Sorted by group id.
     */
    public List<ShareGroupDescription> groups() {
        Collection<GroupListing> listings = get(admin.listGroups(new ListGroupsOptions()
            .withTypes(Set.of(GroupType.SHARE))).all());
        List<String> ids = listings.stream().map(GroupListing::groupId).toList();
        if (ids.isEmpty()) {
            return List.of();
        }
        Map<String, KafkaFuture<ShareGroupDescription>> futures = admin.describeShareGroups(ids).describedGroups();
        List<ShareGroupDescription> descriptions = new ArrayList<>();
        for (Map.Entry<String, KafkaFuture<ShareGroupDescription>> e : new TreeMap<>(futures).entrySet()) {
            try {
                descriptions.add(live(e.getKey(), get(e.getValue(), cause -> notFound(cause, e.getKey()))));
            } catch (ShareGroupNotFoundException gone) {
                // deleted between the list and the describe
            } catch (KafkaOperationException refused) {
                if (!(refused.getCause() instanceof AuthorizationException)) {
                    throw refused;
                }
            }
        }
        return descriptions;
    }

    /**
     * A share group's state, epochs, coordinator and members with their assignments; with
     * {@code includeAuthorizedOperations}, the group operations the caller may do (else null).
     *
     * @throws ShareGroupNotFoundException when there is no such share group
     */
    public ShareGroupDescription group(String group, boolean includeAuthorizedOperations) {
        DescribeShareGroupsOptions options = new DescribeShareGroupsOptions()
            .includeAuthorizedOperations(includeAuthorizedOperations);
        return live(group, get(admin.describeShareGroups(List.of(group), options).describedGroups().get(group),
            cause -> notFound(cause, group)));
    }

    /**
     * Deletes an empty share group with its state.
     *
     * @throws ShareGroupNotFoundException when there is no such share group
     * @throws ShareGroupNotEmptyException when it has members (Kafka's NON_EMPTY_GROUP)
     */
    public void delete(String group) {
        group(group, false);
        get(admin.deleteShareGroups(List.of(group)).all(), cause -> {
            if (cause instanceof GroupNotEmptyException) {
                return new ShareGroupNotEmptyException("Share group " + group + " has members: it can only be "
                    + "deleted when empty.");
            }
            return notFound(cause, group);
        });
    }

    /**
     * Moves an empty share group's start offsets (AlterShareGroupOffsets, KIP-932): its next consumer
     * starts there.
     *
     * @throws ShareGroupNotFoundException when there is no such share group
     * @throws ShareGroupNotEmptyException when it has members (Kafka's NON_EMPTY_GROUP)
     */
    public void resetOffsets(String group, Map<TopicPartition, Long> offsets) {
        get(admin.alterShareGroupOffsets(group, offsets).all(), cause -> {
            if (cause instanceof GroupNotEmptyException) {
                return new ShareGroupNotEmptyException("Share group " + group + " has members: its offsets can only be "
                    + "reset when it is empty.");
            }
            return notFound(cause, group);
        });
    }

    /**
     * The group's {@code share.*} configs as the brokers describe the GROUP resource: the group's
     * overrides, else the brokers' values, sorted by name. Kafka keeps group configs apart from the
     * group itself, so a group that does not exist (yet) has the defaults.
     */
    public List<ConfigEntry> configs(String group) {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.GROUP, group);
        Map<ConfigResource, Config> configs = get(admin.describeConfigs(List.of(resource)).all(),
            ShareGroupsAdmin::badRequest);
        return configs.get(resource).entries().stream().filter(c -> c.name().startsWith(SHARE_CONFIG_PREFIX))
            .sorted((x, y) -> x.name().compareTo(y.name())).toList();
    }

    /**
     * Sets ({@code value} present) or deletes (empty: back to the brokers' value) group configs in
     * one IncrementalAlterConfigs, which the brokers apply whole or not at all.
     *
     * @throws InvalidArgumentException for a name outside {@code share.*}, or what the brokers refuse
     *                                  (unknown name, value out of range)
     */
    public void alterConfigs(String group, Map<String, Optional<String>> changes) {
        List<AlterConfigOp> ops = new ArrayList<>();
        for (Map.Entry<String, Optional<String>> change : changes.entrySet()) {
            if (change.getKey() == null || !change.getKey().startsWith(SHARE_CONFIG_PREFIX)) {
                throw new InvalidArgumentException("Only share.* group configs can be changed on a share group, not "
                    + change.getKey());
            }
            ops.add(change.getValue().isPresent()
                ? new AlterConfigOp(new ConfigEntry(change.getKey(), change.getValue().get()), AlterConfigOp.OpType.SET)
                : new AlterConfigOp(new ConfigEntry(change.getKey(), null), AlterConfigOp.OpType.DELETE));
        }
        ConfigResource resource = new ConfigResource(ConfigResource.Type.GROUP, group);
        get(admin.incrementalAlterConfigs(Map.of(resource, ops)).all(), ShareGroupsAdmin::badRequest);
    }

    /**
     * The group's start offset (and lag, when the brokers give it) of every partition it has state
     * for (DescribeShareGroupOffsets, KIP-932). A broker that does not serve that API fails with
     * Kafka's {@code UnsupportedVersionException}, which callers pass on.
     */
    public Map<TopicPartition, SharePartitionOffsetInfo> offsets(String group) {
        Map<TopicPartition, SharePartitionOffsetInfo> offsets = get(admin.listShareGroupOffsets(
            Map.of(group, new ListShareGroupOffsetsSpec())).partitionsToOffsetInfo(group),
            cause -> notFound(cause, group));
        Map<TopicPartition, SharePartitionOffsetInfo> present = new TreeMap<>((x, y) -> x.topic().equals(y.topic())
            ? Integer.compare(x.partition(), y.partition()) : x.topic().compareTo(y.topic()));
        offsets.forEach((tp, info) -> {
            if (info != null) {
                present.put(tp, info);
            }
        });
        return present;
    }

    /**
     * Each group's total lag in records (KIP-1226): its partitions' lags summed, from one
     * DescribeShareGroupOffsets round for all the groups (batched per coordinator by the Admin client).
     * Empty for a group when a partition's lag is unknown or its offsets cannot be read (a broker without
     * DescribeShareGroupOffsets, a refusal, the group gone): the lag is extra, so it never fails the caller.
     */
    public Map<String, OptionalLong> totalLags(Collection<String> groups) {
        if (groups.isEmpty()) {
            return Map.of();
        }
        Map<String, ListShareGroupOffsetsSpec> specs = new LinkedHashMap<>();
        groups.forEach(g -> specs.put(g, new ListShareGroupOffsetsSpec()));
        ListShareGroupOffsetsResult result = admin.listShareGroupOffsets(specs);
        Map<String, OptionalLong> lags = new LinkedHashMap<>();
        for (String group : groups) {
            OptionalLong lag;
            try {
                lag = totalLag(get(result.partitionsToOffsetInfo(group)).values());
            } catch (RestException unreadable) {
                lag = OptionalLong.empty();
            }
            lags.put(group, lag);
        }
        return lags;
    }

    /**
     * The sum of the partitions' lags; 0 for none; empty when one is unknown (no info, an absent or negative
     * lag: Kafka's -1).
     */
    static OptionalLong totalLag(Collection<SharePartitionOffsetInfo> partitions) {
        long total = 0;
        for (SharePartitionOffsetInfo info : partitions) {
            if (info == null) {
                continue;
            }
            Optional<Long> lag = info.lag();
            if (lag.isEmpty() || lag.get() < 0) {
                return OptionalLong.empty();
            }
            total += lag.get();
        }
        return OptionalLong.of(total);
    }

    private static ShareGroupDescription live(String group, ShareGroupDescription description) {
        if (description == null || description.groupState() == GroupState.DEAD) {
            throw new ShareGroupNotFoundException(group);
        }
        return description;
    }

    private static RestException notFound(Throwable cause, String group) {
        return cause instanceof GroupIdNotFoundException ? new ShareGroupNotFoundException(group) : null;
    }

    /**
     * An {@link InvalidArgumentException} for the Kafka errors that mean the arguments were wrong, else
     * null. Kafka's {@link AuthorizationException} is an {@link InvalidConfigurationException}: it is
     * left to the error table (403).
     */
    private static RestException badRequest(Throwable cause) {
        if (cause instanceof AuthorizationException) {
            return null;
        }
        if (cause instanceof InvalidConfigurationException || cause instanceof InvalidRequestException) {
            return new InvalidArgumentException(KafkaErrors.describe(cause), cause);
        }
        return null;
    }

    private static <T> T get(KafkaFuture<T> future) {
        return KafkaFutures.get(future);
    }

    private static <T> T get(KafkaFuture<T> future, Function<Throwable, RestException> translate) {
        return KafkaFutures.get(future, translate);
    }
}
