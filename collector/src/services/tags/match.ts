/**
 * The one tag rule, for filters in SQL and for the alerting routes' selector in memory: every tag
 * named must match; `key:value` matches exactly, a bare `key` any value of that key (`key` or `key:…`).
 */
export const hasTag = (tags: readonly string[], wanted: string) =>
  wanted.includes(':') ? tags.includes(wanted) : tags.some((tag) => tag === wanted || tag.startsWith(`${wanted}:`))

export const hasTags = (tags: readonly string[], wanted: readonly string[]) => wanted.every((tag) => hasTag(tags, tag))

/**
 * The same rule as a SQL condition on a `tags` column, on parameters from `$first`: exact tags with
 * `@>` (GIN index on the column), bare keys with `@>` on their keys (GIN index on monitoring.tag_keys).
 * No condition and no parameters when no tag is named, so unfiltered lists keep their plans.
 */
export function tagCondition(column: string, wanted: readonly string[], first: number) {
  const exact = wanted.filter((tag) => tag.includes(':'))
  const keys = wanted.filter((tag) => !tag.includes(':'))
  const conditions: string[] = []
  const parameters: string[][] = []
  if (exact.length > 0) {
    parameters.push(exact)
    conditions.push(`${column} @> $${first + parameters.length - 1}::text[]`)
  }
  if (keys.length > 0) {
    parameters.push(keys)
    conditions.push(`monitoring.tag_keys(${column}) @> $${first + parameters.length - 1}::text[]`)
  }
  return { sql: conditions.length > 0 ? conditions.join(' AND ') : 'TRUE', parameters }
}
