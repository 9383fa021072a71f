package io.tributary.faults.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Valid histories of a simulated queue workload, from a seed: two acks=all producers send unique values to three
 * partitions (OK sends are written at the offset they are acknowledged at; failed ones are not written;
 * indeterminate ones are written half of the time); two consumers of one group poll every partition from their
 * positions, commit their positions (never below the group's last OK commit), and rebalance now and then (a new
 * assignment epoch, positions back to the committed offsets). Operations run one after another on a simulated clock;
 * the final reads read every partition's log whole. Not thread-safe.
 */
final class RandomHistories {

    static final List<TopicPartition> PARTITIONS = List.of(
            new TopicPartition("t", 0), new TopicPartition("t", 1), new TopicPartition("t", 2));
    private static final List<String> CONSUMERS = List.of("c0", "c1");

    private final Random random;
    private final Map<TopicPartition, List<String>> logs = new HashMap<>();
    private final Map<TopicPartition, Long> committed = new HashMap<>();
    private final Map<String, Long> epochs = new HashMap<>();
    private final Map<String, Map<TopicPartition, Long>> positions = new HashMap<>();
    private final List<Operation> operations = new ArrayList<>();
    private long nowNanos;
    private int values;

    private RandomHistories(long seed) {
        random = new Random(seed);
        for (TopicPartition partition : PARTITIONS) {
            logs.put(partition, new ArrayList<>());
            committed.put(partition, 0L);
        }
        for (String consumer : CONSUMERS) {
            epochs.put(consumer, 0L);
            positions.put(consumer, new HashMap<>(committed));
        }
    }

    /** A valid history of {@code steps} operations. */
    static History generate(long seed, int steps) {
        RandomHistories workload = new RandomHistories(seed);
        for (int i = 0; i < steps; i++) {
            workload.step();
        }
        return workload.history();
    }

    private void step() {
        int dice = random.nextInt(100);
        String consumer = CONSUMERS.get(random.nextInt(CONSUMERS.size()));
        if (dice < 50) {
            send();
        } else if (dice < 80) {
            poll(consumer);
        } else if (dice < 92) {
            commit(consumer);
        } else {
            epochs.merge(consumer, 1L, Long::sum);
            positions.put(consumer, new HashMap<>(committed));
        }
    }

    private long invoke() {
        return nowNanos += 1 + random.nextInt(1_000_000);
    }

    private long complete() {
        return nowNanos += 1 + random.nextInt(50_000_000);
    }

    private void send() {
        TopicPartition partition = PARTITIONS.get(random.nextInt(PARTITIONS.size()));
        String value = "v" + values++;
        String producer = "p" + random.nextInt(2);
        List<String> log = logs.get(partition);
        int dice = random.nextInt(10);
        long invoked = invoke();
        if (dice < 8) {
            log.add(value);
            operations.add(Send.ok(producer, partition, value, log.size() - 1, invoked, complete()));
        } else {
            Outcome outcome = dice == 8 ? Outcome.FAIL : Outcome.INFO;
            if (outcome == Outcome.INFO && random.nextBoolean()) {
                log.add(value);
            }
            operations.add(Send.unacknowledged(producer, partition, value, outcome, invoked, complete()));
        }
    }

    private void poll(String consumer) {
        Map<TopicPartition, Long> position = positions.get(consumer);
        List<ConsumedRecord> records = new ArrayList<>();
        for (TopicPartition partition : PARTITIONS) {
            List<String> log = logs.get(partition);
            long from = position.get(partition);
            long to = Math.min(log.size(), from + random.nextInt(5));
            for (long offset = from; offset < to; offset++) {
                records.add(new ConsumedRecord(partition, offset, log.get((int) offset)));
            }
            position.put(partition, to);
        }
        long invoked = invoke();
        operations.add(Poll.ok(consumer, "g", epochs.get(consumer), invoked, complete(), records));
    }

    private void commit(String consumer) {
        TopicPartition partition = PARTITIONS.get(random.nextInt(PARTITIONS.size()));
        long offset = Math.max(positions.get(consumer).get(partition), committed.get(partition));
        int dice = random.nextInt(10);
        Outcome outcome = dice < 8 ? Outcome.OK : dice == 8 ? Outcome.FAIL : Outcome.INFO;
        if (outcome == Outcome.OK) {
            committed.put(partition, offset);
        }
        long invoked = invoke();
        operations.add(new Commit(consumer, "g", partition, offset, invoked, complete(), outcome));
    }

    private History history() {
        Map<TopicPartition, Long> ends = new HashMap<>();
        List<ConsumedRecord> reads = new ArrayList<>();
        logs.forEach((partition, log) -> {
            ends.put(partition, (long) log.size());
            for (int offset = 0; offset < log.size(); offset++) {
                reads.add(new ConsumedRecord(partition, offset, log.get(offset)));
            }
        });
        return new History(operations, new FinalReads(ends, reads));
    }
}
