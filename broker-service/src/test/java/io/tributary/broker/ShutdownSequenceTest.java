package io.tributary.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.ShutdownSequence.Step;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShutdownSequenceTest {

    @Test
    void stopsRunInStepOrderWhateverOrderTheyWereAddedIn() {
        List<String> stopped = new ArrayList<>();
        ShutdownSequence.Builder stops = new ShutdownSequence.Builder();
        stops.add(Step.EMBEDDED_ZOOKEEPER, () -> stopped.add("embedded zookeeper"));
        stops.add(Step.LOG_MANAGER, () -> stopped.add("logs"));
        stops.add(Step.METADATA_CACHE, () -> stopped.add("metadata"));
        stops.add(Step.LISTENERS, () -> stopped.add("listener 1"));
        stops.add(Step.LISTENERS, () -> stopped.add("listener 2"));
        stops.add(Step.CONTROLLER, () -> stopped.add("controller"));
        stops.add(Step.REQUEST_HANDLERS, () -> stopped.add("handlers"));

        ShutdownSequence.of(stops).run();

        assertThat(stopped).containsExactly("controller", "listener 1", "listener 2", "handlers", "metadata", "logs",
            "embedded zookeeper");
    }

    @Test
    void aFailingStopDoesNotKeepTheLaterOnesFromRunning() {
        List<String> stopped = new ArrayList<>();
        ShutdownSequence.Builder stops = new ShutdownSequence.Builder();
        stops.add(Step.LISTENERS, () -> {
            throw new IllegalStateException("listener already closed");
        });
        stops.add(Step.SCHEDULER, () -> {
            throw new InterruptedException();
        });
        stops.add(Step.ZOOKEEPER_CLIENT, () -> stopped.add("zookeeper client"));

        ShutdownSequence.of(stops).run();

        assertThat(stopped).containsExactly("zookeeper client");
        assertThat(Thread.interrupted()).as("interrupt kept for the caller").isTrue();
    }

    @Test
    void aSequenceTakenEarlyIsNotChangedByLaterStops() {
        List<String> stopped = new ArrayList<>();
        ShutdownSequence.Builder stops = new ShutdownSequence.Builder();
        stops.add(Step.LOG_MANAGER, () -> stopped.add("logs"));
        ShutdownSequence early = ShutdownSequence.of(stops);
        stops.add(Step.LISTENERS, () -> stopped.add("listener"));

        early.run();

        assertThat(stopped).containsExactly("logs");
    }
}
