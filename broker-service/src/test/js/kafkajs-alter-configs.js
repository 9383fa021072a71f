// KafkaJS's admin client changes a topic's config (AlterConfigs, API 33, the only config API it
// speaks) and reads it back (DescribeConfigs).
//
// Usage: node kafkajs-alter-configs.js BOOTSTRAP TOPIC NAME VALUE
//
// Prints "NAME=VALUE" as DescribeConfigs answers it after the change; exits non-zero when a call
// fails.
const { Kafka, logLevel, ConfigResourceTypes } = require('kafkajs')

const [bootstrap, topic, name, value] = process.argv.slice(2)
const kafka = new Kafka({ clientId: 'kafkajs-alter-configs', brokers: [bootstrap], logLevel: logLevel.ERROR })

async function main () {
  const admin = kafka.admin()
  await admin.connect()
  await admin.alterConfigs({
    validateOnly: false,
    resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configEntries: [{ name, value }] }]
  })
  const described = await admin.describeConfigs({
    includeSynonyms: false,
    resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: [name] }]
  })
  for (const entry of described.resources[0].configEntries) {
    console.log(`${entry.configName}=${entry.configValue}`)
  }
  await admin.disconnect()
}

main().catch(e => {
  console.error(e)
  process.exit(1)
})
