package io.tributary.broker.cluster;

import io.tributary.broker.producer.ProducerIdManager;
import java.util.Optional;
import org.apache.kafka.common.errors.CoordinatorLoadInProgressException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Producer ids from blocks claimed in ZooKeeper, as Kafka's ZK-mode broker does: the node
 * {@code /latest_producer_id_block} holds the last block handed out,
 * {@code {"version":1,"broker":0,"block_start":"0","block_end":"999"}}; a broker claims the next
 * block with a conditional write. Ids are therefore never reused, across restarts or brokers
 * (the unused rest of a block is skipped after a restart).
 *
 * <p>Thread-safe; {@link #generateProducerId()} blocks on ZooKeeper when a block runs out.
 */
public final class ZkProducerIdManager implements ProducerIdManager {

    private static final Logger log = LoggerFactory.getLogger(ZkProducerIdManager.class);

    /** Ids per block, as Kafka. */
    public static final long BLOCK_SIZE = 1000;

    private final int brokerId;
    private final KafkaZkClient zkClient;
    private long nextId = 0;
    private long blockEnd = -1;

    public ZkProducerIdManager(int brokerId, KafkaZkClient zkClient) {
        this.brokerId = brokerId;
        this.zkClient = zkClient;
    }

    @Override
    public synchronized long generateProducerId() {
        if (nextId > blockEnd) {
            claimBlock();
        }
        return nextId++;
    }

    private void claimBlock() {
        for (int attempt = 0; attempt < 100; attempt++) {
            Optional<KafkaZkClient.Versioned> current = zkClient.getDataAndVersion(ZkPaths.PRODUCER_ID_BLOCK);
            long start = 0;
            if (current.isPresent()) {
                JsonNode node = ZkJson.parse(current.get().data(), ZkPaths.PRODUCER_ID_BLOCK);
                start = Long.parseLong(node.path("block_end").asString()) + 1;
            }
            if (start > Long.MAX_VALUE - BLOCK_SIZE) {
                throw new IllegalStateException("Producer ids are exhausted");
            }
            long end = start + BLOCK_SIZE - 1;
            ObjectNode block = ZkJson.object();
            block.put("version", 1);
            block.put("broker", brokerId);
            block.put("block_start", Long.toString(start));
            block.put("block_end", Long.toString(end));
            try {
                if (current.isPresent()) {
                    zkClient.curator().setData().withVersion(current.get().version())
                        .forPath(ZkPaths.PRODUCER_ID_BLOCK, ZkJson.bytes(block));
                } else {
                    zkClient.curator().create().forPath(ZkPaths.PRODUCER_ID_BLOCK, ZkJson.bytes(block));
                }
                nextId = start;
                blockEnd = end;
                log.info("Broker {} claimed producer ids {}..{}", brokerId, start, end);
                return;
            } catch (org.apache.zookeeper.KeeperException.BadVersionException
                     | org.apache.zookeeper.KeeperException.NodeExistsException e) {
                // another broker claimed a block at the same time; read again
            } catch (Exception e) {
                throw new CoordinatorLoadInProgressException("Could not claim a producer id block: " + e);
            }
        }
        throw new CoordinatorLoadInProgressException("Could not claim a producer id block after 100 attempts");
    }
}
