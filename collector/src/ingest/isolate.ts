import { isDataError } from '@guard/shared'

export interface Isolated<T, R> {
  /** What `work` returned for each part it accepted, in order. */
  outcomes: R[]
  /** The items a store refused on their own, each with the error it gave. */
  rejected: Array<{ item: T; error: unknown }>
}

/**
 * Runs `work` over `items`; when a store refuses them with a data error (see isDataError), splits
 * them in halves, in order, until each refused item stands alone, so one poison message costs
 * about 2·log2(n) attempts and the rest are stored. Any other error is rethrown: the caller
 * retries the whole batch, and `work` must be safe to repeat over the parts that already passed.
 */
export async function isolateDataErrors<T, R>(
  items: T[],
  work: (part: T[], split: boolean) => Promise<R>,
  split = false,
): Promise<Isolated<T, R>> {
  try {
    return { outcomes: [await work(items, split)], rejected: [] }
  } catch (error) {
    if (!isDataError(error)) throw error
    if (items.length === 1) return { outcomes: [], rejected: [{ item: items[0]!, error }] }
    if (items.length === 0) throw error
    const middle = Math.ceil(items.length / 2)
    const first = await isolateDataErrors(items.slice(0, middle), work, true)
    const second = await isolateDataErrors(items.slice(middle), work, true)
    return { outcomes: [...first.outcomes, ...second.outcomes], rejected: [...first.rejected, ...second.rejected] }
  }
}
