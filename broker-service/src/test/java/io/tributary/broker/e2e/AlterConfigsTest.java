package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.WireClient;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.AlterConfigsResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AlterConfigsRequest;
import org.apache.kafka.common.requests.AlterConfigsResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AlterConfigs (API 33, v0-2), the legacy config API: it replaces a topic's whole set of overrides,
 * as Kafka's ZooKeeper-mode brokers do, and the brokers apply it at once; for a broker resource it
 * replaces the dynamic broker configs. KafkaJS, kafka-python and
 * librdkafka (confluent-kafka-python) speak only this one to change configs; each changes a topic's
 * config here ({@code .ci/run} installs them).
 */
class AlterConfigsTest {

    /** Debian's interpreter, which has Debian's kafka-python and confluent-kafka packages. */
    private static final String PYTHON = Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";
    private static final Path JS_CLIENTS = Path.of("src/test/js");

    @TempDir
    static Path dir;
    static TestBroker broker;

    @BeforeAll
    static void start() {
        broker = TestBroker.start(dir, Map.of("broker.refused-request-log-interval-ms", "0"));
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    private static void createTopic(String name, Map<String, String> configs) throws Exception {
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(name, 1, (short) 1).configs(configs))).all().get();
        }
    }

    private static Config describe(String topic) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try (Admin admin = broker.admin()) {
            return admin.describeConfigs(List.of(resource)).all().get().get(resource);
        }
    }

    /** One resource's AlterConfigs answer; a null value is sent as null. */
    private static AlterConfigsResponseData.AlterConfigsResourceResponse alter(short version, byte resourceType,
            String name, boolean validateOnly, String... namesAndValues) throws IOException {
        AlterConfigsRequestData.AlterConfigsResource resource = new AlterConfigsRequestData.AlterConfigsResource()
            .setResourceType(resourceType).setResourceName(name);
        for (int i = 0; i < namesAndValues.length; i += 2) {
            resource.configs().add(new AlterConfigsRequestData.AlterableConfig().setName(namesAndValues[i])
                .setValue(namesAndValues[i + 1]));
        }
        AlterConfigsRequestData data = new AlterConfigsRequestData().setValidateOnly(validateOnly);
        data.resources().add(resource);
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            AlterConfigsResponse response = client.send(new AlterConfigsRequest(data, version));
            return response.data().responses().get(0);
        }
    }

    private static byte topicType() {
        return ConfigResource.Type.TOPIC.id();
    }

    @Test
    void theGivenSetReplacesTheTopicsOverridesAndTheRestGoBackToDefaults() throws Exception {
        createTopic("replaced", Map.of("retention.ms", "3600000", "cleanup.policy", "compact"));
        for (short version = 0; version <= 2; version++) {
            AlterConfigsResponseData.AlterConfigsResourceResponse answer = alter(version, topicType(), "replaced", false,
                "segment.bytes", Integer.toString(2_000_000 + version), "retention.ms", null);
            assertThat(Errors.forCode(answer.errorCode())).as("v%d: %s", version, answer.errorMessage())
                .isEqualTo(Errors.NONE);
        }

        Config config = describe("replaced");
        assertThat(config.get("segment.bytes").value()).isEqualTo("2000002");
        assertThat(config.get("segment.bytes").source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
        assertThat(config.get("cleanup.policy").value()).as("not in the set: back to the default").isEqualTo("delete");
        assertThat(config.get("retention.ms").source()).as("a null value is left out")
            .isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);
    }

    @Test
    void validateOnlyChangesNothingAndBadRequestsGetKafkasErrors() throws Exception {
        createTopic("checked", Map.of("retention.ms", "3600000"));
        assertThat(Errors.forCode(alter((short) 1, topicType(), "checked", true, "retention.ms", "60000").errorCode()))
            .isEqualTo(Errors.NONE);
        assertThat(describe("checked").get("retention.ms").value()).isEqualTo("3600000");

        ch.qos.logback.classic.Logger refusals = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(
            io.tributary.broker.audit.RefusedRequestLog.class);
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> lines =
            new ch.qos.logback.core.read.ListAppender<>();
        lines.start();
        refusals.addAppender(lines);
        AlterConfigsResponseData.AlterConfigsResourceResponse unknownName;
        try {
            unknownName = alter((short) 2, topicType(), "checked", false, "retention.msx", "1");
        } finally {
            refusals.detachAppender(lines);
        }
        assertThat(lines.list).map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage)
            .as("the operator sees the refusal").anySatisfy(line -> assertThat(line).startsWith("Refused ALTER_CONFIGS v2")
                .contains("ConfigResource(type=TOPIC, name='checked') with INVALID_CONFIG: Unknown topic config name"));
        assertThat(Errors.forCode(unknownName.errorCode())).isEqualTo(Errors.INVALID_CONFIG);
        assertThat(unknownName.errorMessage()).contains("Unknown topic config name: retention.msx");
        assertThat(Errors.forCode(alter((short) 2, topicType(), "checked", false, "retention.ms", "soon").errorCode()))
            .isEqualTo(Errors.INVALID_CONFIG);
        assertThat(describe("checked").get("retention.ms").value()).as("a refused set changes nothing").isEqualTo("3600000");

        assertThat(Errors.forCode(alter((short) 2, topicType(), "no-such-topic", false, "retention.ms", "1").errorCode()))
            .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);
        AlterConfigsResponseData.AlterConfigsResourceResponse defaultTopic = alter((short) 2, topicType(), "", false,
            "retention.ms", "1");
        assertThat(Errors.forCode(defaultTopic.errorCode())).isEqualTo(Errors.INVALID_REQUEST);
        assertThat(defaultTopic.errorMessage()).isEqualTo("Default topic resources are not allowed.");
        assertThat(Errors.forCode(alter((short) 2, ConfigResource.Type.BROKER.id(), "0", true,
            "log.retention.ms", "1").errorCode())).isEqualTo(Errors.NONE);
        AlterConfigsResponseData.AlterConfigsResourceResponse staticKey = alter((short) 2,
            ConfigResource.Type.BROKER.id(), "0", false, "log.retention.ms", "1", "log.dirs", "/elsewhere");
        assertThat(Errors.forCode(staticKey.errorCode())).isEqualTo(Errors.INVALID_CONFIG);
        assertThat(staticKey.errorMessage()).isEqualTo("Invalid config value for resource ConfigResource(type=BROKER, "
            + "name='0'): Cannot update these configs dynamically: Set(log.dirs)");
        assertThat(describe("checked").get("retention.ms").value()).as("neither changed the default").isEqualTo("3600000");
        assertThat(Errors.forCode(alter((short) 2, ConfigResource.Type.BROKER.id(), "7", false,
            "log.retention.ms", "1").errorCode())).as("another broker's id").isEqualTo(Errors.INVALID_REQUEST);
        assertThat(alter((short) 2, ConfigResource.Type.CLIENT_METRICS.id(), "m", false, "x", "1").errorMessage())
            .isEqualTo("AlterConfigs is only supported for topics, brokers and groups, but resource type is CLIENT_METRICS");
        assertThat(alter((short) 2, ConfigResource.Type.GROUP.id(), "g", false, "x", "1").errorMessage())
            .isEqualTo("Invalid config value for resource ConfigResource(type=GROUP, name='g'): Unknown group config name: x");
        assertThat(Errors.forCode(alter((short) 2, ConfigResource.Type.GROUP.id(), "g", false,
            "consumer.heartbeat.interval.ms", "6000").errorCode())).as("a group's configs, replaced as a set")
            .isEqualTo(Errors.NONE);
    }

    @Test
    void theGivenSetReplacesTheClusterWideDynamicBrokerConfigs() throws Exception {
        createTopic("jittered", Map.of());
        byte brokerType = ConfigResource.Type.BROKER.id();
        assertThat(Errors.forCode(alter((short) 2, brokerType, "", false, "log.roll.jitter.ms", "1000",
            "log.index.interval.bytes", "8192").errorCode())).isEqualTo(Errors.NONE);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
            .until(() -> "1000".equals(describe("jittered").get("segment.jitter.ms").value()));
        assertThat(describe("jittered").get("segment.jitter.ms").source())
            .isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);

        assertThat(Errors.forCode(alter((short) 2, brokerType, "", false, "log.index.interval.bytes", "8192")
            .errorCode())).isEqualTo(Errors.NONE);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
            .until(() -> "0".equals(describe("jittered").get("segment.jitter.ms").value()));
        assertThat(describe("jittered").get("index.interval.bytes").value()).isEqualTo("8192");

        assertThat(Errors.forCode(alter((short) 0, brokerType, "", false).errorCode())).as("the empty set clears them")
            .isEqualTo(Errors.NONE);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
            .until(() -> describe("jittered").get("index.interval.bytes").source() == ConfigEntry.ConfigSource.DEFAULT_CONFIG);
    }

    @Test
    void aLoweredMaxMessageBytesRefusesALargerRecordAtOnce() throws Exception {
        createTopic("limited", Map.of());
        assertThat(Errors.forCode(alter((short) 2, topicType(), "limited", false, "max.message.bytes", "1000")
            .errorCode())).isEqualTo(Errors.NONE);
        try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of(ProducerConfig.RETRIES_CONFIG, 0,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 20_000))) {
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).untilAsserted(() ->
                assertThatThrownBy(() -> producer.send(new ProducerRecord<>("limited", new byte[2_000])).get())
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(RecordTooLargeException.class));
        }
    }

    @Test
    void kafkaJsChangesATopicConfig() throws Exception {
        assertThat(JS_CLIENTS.resolve("node_modules/kafkajs")).as("npm ci --prefix broker-service/src/test/js")
            .exists();
        createTopic("kafkajs-configured", Map.of());
        List<String> output = run(JS_CLIENTS, "node", "kafkajs-alter-configs.js", broker.bootstrapServers(),
            "kafkajs-configured", "retention.ms", "123456");
        assertThat(output).contains("retention.ms=123456");
        assertThat(describe("kafkajs-configured").get("retention.ms").value()).isEqualTo("123456");
    }

    @Test
    void kafkaPythonChangesATopicConfig() throws Exception {
        createTopic("kafka-python-configured", Map.of());
        List<String> output = run(dir, PYTHON, script().toString(), "kafka-python", broker.bootstrapServers(),
            "kafka-python-configured", "retention.ms", "234567");
        assertThat(output).contains("retention.ms=234567");
        assertThat(describe("kafka-python-configured").get("retention.ms").value()).isEqualTo("234567");
    }

    @Test
    void librdkafkaChangesATopicConfig() throws Exception {
        createTopic("librdkafka-configured", Map.of());
        List<String> output = run(dir, PYTHON, script().toString(), "confluent-kafka", broker.bootstrapServers(),
            "librdkafka-configured", "retention.ms", "345678");
        assertThat(output).contains("retention.ms=345678");
        assertThat(describe("librdkafka-configured").get("retention.ms").value()).isEqualTo("345678");
    }

    private static synchronized Path script() throws IOException {
        Path script = dir.resolve("alter_topic_config.py");
        if (!Files.exists(script)) {
            try (InputStream in = AlterConfigsTest.class.getResourceAsStream("/clients/alter_topic_config.py")) {
                Files.copy(in, script);
            }
        }
        return script;
    }

    /** Runs a client to its end (well within two minutes) and returns its output's lines; it must exit 0. */
    private static List<String> run(Path workDir, String... command) throws Exception {
        Process process = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("%s output:%n%s", Arrays.toString(command), output).isZero();
        return output.lines().toList();
    }
}
