import { jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import { afterAll, describe, expect, it } from 'vitest'
import { guardStreams, RESULTS_STREAM } from '../contracts/streams.ts'
import { startNatsCluster } from '../testing/nats-server.ts'
import { createNatsBus } from './nats.ts'

const cluster = await startNatsCluster(3)

describe.skipIf(!cluster)('stream replicas on a JetStream cluster', () => {
  afterAll(async () => {
    await cluster?.stop()
  })

  /** Replica counts of the RESULTS stream, the durable and the KV bucket's stream, as the servers report them. */
  const counts = async () => {
    const nc = await connect({ servers: cluster!.urls.split(',') })
    try {
      const jsm = await jetstreamManager(nc)
      const stream = await jsm.streams.info(RESULTS_STREAM)
      const consumer = await jsm.consumers.info(RESULTS_STREAM, 'replicas-test')
      const kv = await jsm.streams.info('KV_replicas-test')
      return {
        stream: stream.config.num_replicas,
        consumer: consumer.config.num_replicas || stream.config.num_replicas,
        kv: kv.config.num_replicas,
      }
    } finally {
      await nc.close()
    }
  }

  const openWith = async (replicas: number) => {
    // A node answers clients before the cluster has elected its JetStream meta leader.
    for (let attempt = 0; ; attempt++) {
      try {
        return await createNatsBus({ servers: cluster!.urls, name: 'replicas-test', streams: guardStreams, replicas })
      } catch (error) {
        if (attempt >= 40) throw error
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
    }
  }

  const declare = async (replicas: number) => {
    const bus = await openWith(replicas)
    const consumer = await bus.consume(
      {
        stream: RESULTS_STREAM,
        durable: 'replicas-test',
        filterSubject: 'results.>',
        maxBatch: 10,
        maxWaitMs: 50,
        ackWaitMs: 5000,
      },
      async () => {},
    )
    await bus.kv('replicas-test')
    await consumer.stop()
    await bus.close()
  }

  it('creates streams, durables and KV buckets with the count, brings existing ones up to a new one and never lowers it', async () => {
    await declare(1)
    expect(await counts()).toEqual({ stream: 1, consumer: 1, kv: 1 })
    await declare(3)
    expect(await counts()).toEqual({ stream: 3, consumer: 3, kv: 3 })
    // Declaring again with the same count changes nothing and fails nothing.
    await declare(3)
    expect(await counts()).toEqual({ stream: 3, consumer: 3, kv: 3 })
    // A process started without the setting (1) leaves the cluster's copies as they are.
    await declare(1)
    expect(await counts()).toEqual({ stream: 3, consumer: 3, kv: 3 })
  }, 60_000)
})
