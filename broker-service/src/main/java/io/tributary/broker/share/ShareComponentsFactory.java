package io.tributary.broker.share;

import io.tributary.broker.config.ShareGroupProperties;
import io.tributary.broker.group.GroupConfigLookup;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.scheduler.Scheduler;
import org.apache.kafka.common.utils.Time;

/**
 * Builds the {@link ShareComponents} of a broker from its {@code group.share.*} settings: the
 * share-partition manager (told of leadership changes by the replica manager; call before the
 * metadata loads), the share session cache, and the state persister (in memory until the share
 * coordinator over {@code __share_group_state} exists).
 */
public final class ShareComponentsFactory {

    private ShareComponentsFactory() {
    }

    /**
     * @param groupConfigs the share groups' own {@code share.*} configs
     * @param scheduler    runs the acquisition lock timers
     */
    public static ShareComponents create(ShareGroupProperties settings, ReplicaManager replicaManager,
                                         GroupConfigLookup groupConfigs, Scheduler scheduler, Time time) {
        ShareStatePersister persister = new InMemoryShareStatePersister();
        SharePartitionManager manager = new SharePartitionManager(new ReplicaShareLog(replicaManager), persister,
            new ShareGroupSettings(settings.groupShareRecordLockDurationMs(), settings.groupShareDeliveryCountLimit(),
                settings.groupSharePartitionMaxRecordLocks(), groupConfigs),
            new AcquisitionLockTimer(scheduler));
        replicaManager.addLeadershipListener(manager);
        // A session idle past the member's session timeout belongs to a member the group has fenced.
        ShareSessionCache sessions = new ShareSessionCache(settings.groupShareMaxShareSessions(),
            settings.groupShareSessionTimeoutMs(), time,
            key -> manager.releaseSession(key.groupId(), key.memberId()));
        return new ShareComponents(manager, sessions, persister);
    }
}
