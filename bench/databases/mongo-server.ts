import { startMongoWire } from '../../probe/src/testing/mongo-wire.ts'

/** The MongoDB wire fake in a process of its own, so its CPU is not charged to the checks. Prints its port; ends with stdin. */
const mongo = await startMongoWire({ collections: { 'app.servers': [{ _id: 1, name: 'a', healthy: true }] } })
process.stdout.write(`${JSON.stringify({ port: mongo.port })}\n`)
process.stdin.resume()
process.stdin.on('end', () => {
  mongo.close().then(() => process.exit(0))
})
