// KafkaJS's transactional producer and read_committed consumer against a broker.
//
// Usage: node kafkajs-transactions.js BOOTSTRAP TOPIC
//
// Commits two transactions and aborts one between them, then reads the topic from the beginning
// in a consumer group (KafkaJS reads committed records by default) and prints each value, one per
// line. Exits non-zero when a call fails or the three committed values do not arrive.
const { Kafka, logLevel } = require('kafkajs')

const [bootstrap, topic] = process.argv.slice(2)
const kafka = new Kafka({ clientId: 'kafkajs-transactions', brokers: [bootstrap], logLevel: logLevel.ERROR })

async function main () {
  const producer = kafka.producer({ transactionalId: 'kafkajs-app', idempotent: true, maxInFlightRequests: 1 })
  await producer.connect()
  let transaction = await producer.transaction()
  await transaction.send({ topic, messages: [{ value: 'committed-1', partition: 0 }, { value: 'committed-2', partition: 1 }] })
  await transaction.commit()
  transaction = await producer.transaction()
  await transaction.send({ topic, messages: [{ value: 'aborted', partition: 0 }] })
  await transaction.abort()
  transaction = await producer.transaction()
  await transaction.send({ topic, messages: [{ value: 'committed-3', partition: 1 }] })
  await transaction.commit()
  await producer.disconnect()

  const consumer = kafka.consumer({ groupId: 'kafkajs-reader' })
  await consumer.connect()
  await consumer.subscribe({ topic, fromBeginning: true })
  const values = []
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('only read ' + JSON.stringify(values))), 30000)
    consumer.run({
      eachMessage: async ({ message }) => {
        values.push(message.value.toString())
        console.log(message.value.toString())
        if (values.filter(v => v.startsWith('committed-')).length === 3) {
          clearTimeout(timer)
          resolve()
        }
      }
    }).catch(reject)
  })
  await consumer.disconnect()
}

main().then(() => process.exit(0), error => {
  console.error(error)
  process.exit(1)
})
