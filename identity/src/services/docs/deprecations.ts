/** A deprecated operation, as announced in the changelog, llms.txt and the response headers. */
export interface Deprecation {
  method: string
  path: string
  /** When it was announced: the changelog entry's date. */
  announced: Date
  /** When it may be removed; at least MIN_SUNSET_DAYS after `announced`. */
  sunset: Date
  /** The API version that deprecated it. */
  version: string
  replacement?: string | undefined
}

export const MIN_SUNSET_DAYS = 90

const DAY_MS = 86_400_000

/** Refuses a deprecation that gives clients less notice than the versioning policy promises. */
export function assertSunsetNotice(deprecation: Deprecation): void {
  const noticeDays = (deprecation.sunset.getTime() - deprecation.announced.getTime()) / DAY_MS
  if (!(noticeDays >= MIN_SUNSET_DAYS)) {
    throw new Error(
      `${deprecation.method} ${deprecation.path}: Sunset must be at least ${MIN_SUNSET_DAYS} days after the announcement (got ${Math.floor(noticeDays)})`,
    )
  }
}
