"""librdkafka's transactional producer (Debian's python3-confluent-kafka) against a broker.

Usage: librdkafka_transactions.py BOOTSTRAP TOPIC

Commits two transactions and aborts one between them, then reads the topic's two partitions
with isolation.level=read_committed and prints each value read, one per line. Exits non-zero
when a transactional call fails.
"""
import sys
import time

from confluent_kafka import Consumer, Producer, TopicPartition

bootstrap, topic = sys.argv[1], sys.argv[2]

producer = Producer({"bootstrap.servers": bootstrap, "transactional.id": "librdkafka-app"})
producer.init_transactions(30)
producer.begin_transaction()
producer.produce(topic, b"committed-1", partition=0)
producer.produce(topic, b"committed-2", partition=1)
producer.commit_transaction(30)
producer.begin_transaction()
producer.produce(topic, b"aborted", partition=0)
producer.flush(30)
producer.abort_transaction(30)
producer.begin_transaction()
producer.produce(topic, b"committed-3", partition=1)
producer.commit_transaction(30)

consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "librdkafka-reader",
                     "isolation.level": "read_committed", "auto.offset.reset": "earliest",
                     "enable.auto.commit": False, "enable.partition.eof": True})
consumer.assign([TopicPartition(topic, 0, 0), TopicPartition(topic, 1, 0)])
at_end = set()
deadline = time.time() + 30
while len(at_end) < 2 and time.time() < deadline:
    message = consumer.poll(0.5)
    if message is None:
        continue
    if message.error():
        if message.error().code() == -191:  # _PARTITION_EOF
            at_end.add(message.partition())
            continue
        raise SystemExit("consume failed: %s" % message.error())
    print(message.value().decode("utf-8"), flush=True)
consumer.close()
if len(at_end) < 2:
    raise SystemExit("did not reach the end of both partitions")
