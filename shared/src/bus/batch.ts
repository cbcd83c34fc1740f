import type { BatchHandler, StreamMessage } from './types.ts'

/** Redelivery delay after a throwing handler: short at first, growing so a failing handler cannot spin. */
export function failedBatchDelayMs(deliveryCount: number): number {
  return Math.min(100 * 2 ** (deliveryCount - 1), 10_000)
}

/**
 * Runs the handler on one batch. Each message settles once (later ack/nak/term calls are
 * ignored, as JetStream does); when the handler throws, whatever it left unsettled is nak'ed.
 * The error itself is the handler's to log: the bus only makes sure the work comes back.
 */
export async function handBatch(batch: StreamMessage[], handler: BatchHandler): Promise<void> {
  const unsettled = new Set<StreamMessage>()
  const wrapped = batch.map((message) => {
    const once = (settle: () => Promise<void>) => async (): Promise<void> => {
      if (!unsettled.delete(view)) return
      await settle()
    }
    const view: StreamMessage = {
      subject: message.subject,
      data: message.data,
      msgId: message.msgId,
      deliveryCount: message.deliveryCount,
      ack: once(() => message.ack()),
      term: once(() => message.term()),
      nak: (delayMs?: number) => once(() => message.nak(delayMs))(),
      working: async () => {
        if (unsettled.has(view)) await message.working()
      },
    }
    unsettled.add(view)
    return view
  })
  try {
    await handler(wrapped)
  } catch {
    await Promise.allSettled([...unsettled].map((message) => message.nak(failedBatchDelayMs(message.deliveryCount))))
  }
}
