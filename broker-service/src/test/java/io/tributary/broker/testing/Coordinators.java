package io.tributary.broker.testing;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FindCoordinatorRequest;
import org.apache.kafka.common.requests.FindCoordinatorResponse;
import org.apache.kafka.common.requests.OffsetFetchRequest;
import org.apache.kafka.common.requests.OffsetFetchResponse;

/** Waits for the group coordinator, for tests that speak the protocol without a client library. */
public final class Coordinators {

    private Coordinators() {
    }

    /**
     * Looks the group's coordinator up (creating the offsets topic on first use) until it answers
     * and has loaded the group's partition: FindCoordinator says NONE and OffsetFetch stops saying
     * COORDINATOR_LOAD_IN_PROGRESS.
     */
    public static void awaitLoaded(String bootstrap, String group) {
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
            try (WireClient client = WireClient.connect(bootstrap)) {
                FindCoordinatorResponse found = client.send(new FindCoordinatorRequest.Builder(
                    new FindCoordinatorRequestData().setKeyType((byte) 0).setKey(group)).build((short) 3));
                if (found.error() != Errors.NONE) {
                    return false;
                }
                OffsetFetchResponse fetched = client.send(OffsetFetchRequest.Builder.forTopicNames(
                    new OffsetFetchRequestData().setGroups(List.of(new OffsetFetchRequestData.OffsetFetchRequestGroup()
                        .setGroupId(group).setTopics(null))), false).build((short) 8));
                return fetched.data().groups().get(0).errorCode() == Errors.NONE.code();
            }
        });
    }
}
