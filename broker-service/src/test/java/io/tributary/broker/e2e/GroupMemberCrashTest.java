package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.ConsumerProcess;
import io.tributary.broker.testing.TestBroker;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A group of three consumer processes reads the 10,000 lines of a real access log while one of
 * them is killed with SIGKILL half way and then started again (members of the classic protocol and of
 * KIP-848's consumer protocol): its partitions move to the
 * others after its session timeout, and in the end no line is lost. Lines the killed process
 * read but had not committed are read again; they are counted, not forbidden.
 */
class GroupMemberCrashTest {

    private static final String TOPIC = "access";
    private static final String GROUP = "access-readers";
    private static final int SESSION_TIMEOUT_MS = 3000;

    @TempDir
    Path dir;

    @org.junit.jupiter.params.ParameterizedTest(name = "group.protocol={0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"classic", "consumer"})
    void noLineIsLostWhenAMemberIsKilledHalfWay(String protocol) throws Exception {
        List<String> lines;
        try (InputStream in = GroupMemberCrashTest.class.getResourceAsStream("/data/apache_access.log")) {
            lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
        assertThat(lines).hasSize(10_000);
        // Identical lines are told apart by their line number.
        List<String> numbered = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            numbered.add(i + " " + lines.get(i));
        }

        // KIP-848 members (group.protocol=consumer) get their session timeout from the broker.
        try (TestBroker broker = TestBroker.start(dir.resolve("broker-" + protocol), Map.of(
                "broker.group-consumer-session-timeout-ms", String.valueOf(SESSION_TIMEOUT_MS),
                "broker.group-consumer-heartbeat-interval-ms", "500"))) {
            String bootstrap = broker.bootstrapServers();
            try (Admin admin = broker.admin()) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 6, (short) 1))).all().get();
            }
            List<ConsumerProcess> members = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    members.add(ConsumerProcess.start(bootstrap, GROUP, TOPIC, SESSION_TIMEOUT_MS, protocol,
                        dir.resolve(protocol + "-member-" + i + ".log")));
                }
                // All three share the partitions before the first line is written.
                try (Admin admin = broker.admin()) {
                    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
                        ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(GROUP)).all().get()
                            .get(GROUP);
                        return group.groupState() == GroupState.STABLE && group.members().size() == 3
                            && group.members().stream().allMatch(m -> m.assignment().topicPartitions().size() == 2);
                    });
                }
                // Lines arrive over a few seconds, so the kill lands while the group is reading.
                Thread producer = new Thread(() -> produce(bootstrap, numbered), "access-log-producer");
                producer.start();
                await().atMost(Duration.ofSeconds(90)).until(() -> distinct(members).size() >= numbered.size() / 2);
                ConsumerProcess victim = members.get(1);
                victim.kill();
                int readByVictim = victim.values().size();
                members.add(ConsumerProcess.start(bootstrap, GROUP, TOPIC, SESSION_TIMEOUT_MS, protocol,
                    dir.resolve(protocol + "-member-restarted.log")));
                producer.join(120_000);

                await().atMost(Duration.ofSeconds(120)).until(() -> distinct(members).size() == numbered.size());
                assertThat(distinct(members)).isEqualTo(new HashSet<>(numbered));
                int total = members.stream().mapToInt(m -> m.values().size()).sum();
                System.out.printf("Group of 3 read %d lines with one member killed after reading %d: %d read twice%n",
                    numbered.size(), readByVictim, total - numbered.size());
                assertThat(readByVictim).isPositive();
            } finally {
                for (ConsumerProcess m : members) {
                    m.close();
                }
            }
        }
    }

    private static void produce(String bootstrap, List<String> lines) {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            for (int i = 0; i < lines.size(); i++) {
                producer.send(new ProducerRecord<>(TOPIC, i % 6, null, lines.get(i)));
                if (i % 500 == 499) {
                    producer.flush();
                    Thread.sleep(200); // paces the load (not a wait for a condition): lines arrive over 4 s
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Set<String> distinct(List<ConsumerProcess> members) {
        Set<String> out = new HashSet<>();
        members.forEach(m -> out.addAll(m.values()));
        return out;
    }
}
