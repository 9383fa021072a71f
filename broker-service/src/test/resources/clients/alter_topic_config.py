"""A Python client changes a topic's config with AlterConfigs (API 33) and reads it back.

Usage: alter_topic_config.py CLIENT BOOTSTRAP TOPIC NAME VALUE

CLIENT is "kafka-python" (Debian's python3-kafka, KafkaAdminClient.alter_configs) or
"confluent-kafka" (Debian's python3-confluent-kafka, librdkafka's AdminClient.alter_configs).
Prints "NAME=VALUE" as DescribeConfigs answers it after the change; exits non-zero on a failure.
"""
import sys


def with_kafka_python(bootstrap, topic, name, value):
    from kafka.admin import ConfigResource, ConfigResourceType, KafkaAdminClient

    admin = KafkaAdminClient(bootstrap_servers=bootstrap, client_id="kafka-python-alter-configs")
    try:
        response = admin.alter_configs([ConfigResource(ConfigResourceType.TOPIC, topic, configs={name: value})])
        for error_code, message, _type, resource_name in response.resources:
            if error_code != 0:
                raise SystemExit("AlterConfigs of %s failed: %d %s" % (resource_name, error_code, message))
        described = admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, topic, configs={name: None})])
        for response in described:
            for _error, _message, _type, _name, entries in response.resources:
                for entry in entries:
                    print("%s=%s" % (entry[0], entry[1]))
    finally:
        admin.close()


def with_confluent_kafka(bootstrap, topic, name, value):
    from confluent_kafka.admin import AdminClient, ConfigResource

    admin = AdminClient({"bootstrap.servers": bootstrap, "client.id": "confluent-kafka-alter-configs"})
    resource = ConfigResource("topic", topic, set_config={name: value})
    for future in admin.alter_configs([resource]).values():
        future.result(timeout=30)
    for future in admin.describe_configs([ConfigResource("topic", topic)]).values():
        entries = future.result(timeout=30)
        print("%s=%s" % (name, entries[name].value))


def main():
    client, bootstrap, topic, name, value = sys.argv[1:6]
    if client == "kafka-python":
        with_kafka_python(bootstrap, topic, name, value)
    elif client == "confluent-kafka":
        with_confluent_kafka(bootstrap, topic, name, value)
    else:
        raise SystemExit("unknown client " + client)


if __name__ == "__main__":
    main()
