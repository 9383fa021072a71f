package io.tributary.benchmarks;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.Uuid;

/**
 * Apache Kafka's own broker from the released {@code kafka_2.13} jars: one combined-mode KRaft node
 * (broker and controller), storage formatted first with {@code kafka.tools.StorageTool}.
 */
final class KafkaBroker extends BrokerUnderTest {

    private final JavaLauncher launcher;
    private final String heap;
    private final int controllerPort = freePort();

    KafkaBroker(Path dir, JavaLauncher launcher, String heap) throws IOException {
        super("kafka", dir);
        this.launcher = launcher;
        this.heap = heap;
    }

    @Override
    protected Process launch() throws IOException, InterruptedException {
        Path config = writeConfig();
        format(config);
        List<String> jvm = new ArrayList<>(jvmOptions(heap));
        jvm.add("-Dbenchmark.log-level=INFO");
        return JavaLauncher.start(launcher.mainClass(jvm, "kafka.Kafka", List.of(config.toString())), dir, logFile);
    }

    private void format(Path config) throws IOException, InterruptedException {
        List<String> command = launcher.mainClass(List.of("-Xmx256m"), "kafka.tools.StorageTool",
                List.of("format", "-t", Uuid.randomUuid().toString(), "-c", config.toString(), "--standalone"));
        Process format = JavaLauncher.start(command, dir, logFile);
        if (!format.waitFor(120, TimeUnit.SECONDS) || format.exitValue() != 0) {
            format.destroyForcibly();
            throw new IllegalStateException("formatting Kafka's storage failed; " + logFile + " ends with:\n"
                    + LogTail.of(logFile, 30));
        }
    }

    private Path writeConfig() throws IOException {
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", "1");
        p.setProperty("controller.quorum.bootstrap.servers", "127.0.0.1:" + controllerPort);
        p.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT");
        p.setProperty("log.dirs", dir.resolve("kafka-logs").toString());
        p.setProperty("offsets.topic.replication.factor", "1");
        p.setProperty("transaction.state.log.replication.factor", "1");
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("share.coordinator.state.topic.replication.factor", "1");
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        p.setProperty("auto.create.topics.enable", "false");
        Path file = dir.resolve("server.properties");
        try (Writer out = Files.newBufferedWriter(file)) {
            p.store(out, "single-node KRaft broker for the producer benchmark");
        }
        return file;
    }
}
