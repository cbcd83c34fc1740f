import { readFileSync } from 'node:fs'
import { type DeadLetter, deadLetterSubject, decodeDeadLetter, decodeEvent, encodeEvent, newId } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectorForTest, waitUntil } from '../test-support.ts'
import { consumeEvents } from './consume-events.ts'

const golden = decodeEvent(
  readFileSync(new URL('../../../shared/src/contracts/golden/event.monitor-down.v1.golden.json', import.meta.url)),
)

describe('event consumers', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  beforeAll(async () => {
    harness = await collectorForTest()
  })
  afterAll(() => harness.close())

  it('dead-letter at once an event a store refuses with a data error, and handle the events beside it', async () => {
    const letters: DeadLetter[] = []
    const watching = await harness.ctx.bus.subscribe(deadLetterSubject('events'), (data) =>
      letters.push(decodeDeadLetter(data)),
    )
    // A batch runs in one transaction: the events handled before the poison run again one by one.
    const handled = new Set<string>()
    const poison = { ...golden, id: newId() }
    const consumer = await consumeEvents(harness.ctx, `test-${newId()}`, {
      'monitor.down': async (event, { tx }) => {
        // What a handler quoting the event's text into JSON meets when the text holds a NUL.
        if (event.id === poison.id) await tx.query(`SELECT $1::json ->> 'a'`, ['{"a":"\\u0000"}'])
        handled.add(event.id)
      },
    })
    const events = [{ ...golden, id: newId() }, poison, { ...golden, id: newId() }]
    for (const event of events) {
      await harness.ctx.bus.publish(`events.${event.type}`, encodeEvent(event), { msgId: event.id })
    }
    await waitUntil(() => letters.length === 1 && handled.size === 2, 'the others handled and the poison dead-lettered')
    expect([...handled].sort()).toEqual([events[0]!.id, events[2]!.id].sort())
    expect(letters[0]).toMatchObject({ source: 'events', reason: 'data', deliveryCount: 1 })
    await consumer.stop()
    await watching.stop()
  })
})
