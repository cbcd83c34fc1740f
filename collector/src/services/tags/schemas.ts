import { GuardError } from '@guard/shared'
import { z } from 'zod'

/** Letters, digits and `_ . / -`, starting with a letter or digit: a tag key is a name, not a sentence. */
const KEY = /^[\p{Ll}\p{Lo}\p{N}][\p{Ll}\p{Lo}\p{N}_./-]{0,49}$/u
/** A value is free text without control characters or commas (lists of tags are comma-separated in the console). */
const VALUE = /^[^\p{Cc},]{1,100}$/u
export const MAX_TAGS = 20

/** `Env : prod ` → `env:prod`: trimmed around the key and the value, the key in lower case. */
export function normaliseTag(raw: string): string {
  const text = raw.trim()
  const colon = text.indexOf(':')
  if (colon === -1) return text.toLowerCase()
  return `${text.slice(0, colon).trim().toLowerCase()}:${text.slice(colon + 1).trim()}`
}

const keyProblem = (key: string) =>
  KEY.test(key) ? undefined : 'a tag key is 1 to 50 letters, digits, _ . / or -, starting with a letter or digit'

/** What is wrong with a normalised tag, if anything. */
function tagProblem(tag: string): string | undefined {
  const colon = tag.indexOf(':')
  const problem = keyProblem(colon === -1 ? tag : tag.slice(0, colon))
  if (problem) return problem
  if (colon !== -1 && !VALUE.test(tag.slice(colon + 1))) {
    return 'a tag value is 1 to 100 characters without commas or control characters'
  }
  return undefined
}

/** One tag of a monitor or device: `key` or `key:value`, normalised. */
export const tag = z
  .string()
  .max(200)
  // overwrite, not transform: the schema stays a string to OpenAPI, whose examples a transform would drop.
  .overwrite(normaliseTag)
  .superRefine((value, check) => {
    const problem = tagProblem(value)
    if (problem) check.addIssue({ code: 'custom', message: problem })
  })

/** A subject's tags: at most 20, duplicates (after normalising) dropped, order kept. */
export const subjectTags = z
  .array(tag)
  .max(MAX_TAGS, `at most ${MAX_TAGS} tags`)
  .overwrite((tags) => [...new Set(tags)])

/**
 * One tag of a filter: `key:value` matches that tag exactly, a bare `key` (or `key:*`) any value of
 * the key, as the alerting routes' selector does.
 */
export const tagSelector = z
  .string()
  .max(200)
  .overwrite((raw) => normaliseTag(raw.trim().endsWith(':*') ? raw.trim().slice(0, -2) : raw))
  .superRefine((value, check) => {
    const problem = tagProblem(value)
    if (problem) check.addIssue({ code: 'custom', message: problem })
  })

/** `?tag=a&tag=b` arrives as an array, `?tag=a` as a string: both are a list of selectors. */
export const tagQuery = z
  .union([tagSelector, z.array(tagSelector).max(MAX_TAGS)])
  .optional()
  .transform((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]))
  .describe(
    'Tags every listed item carries: `key:value` exactly, a bare `key` (or `key:*`) any value of it. Repeat for more.',
  )

/** The MCP list tools' `tags` argument: the list routes' `?tag=` as an array. */
export const tagsArgument = z
  .array(tagSelector)
  .max(MAX_TAGS)
  .optional()
  .describe('Only what carries every tag named: `key:value` exactly, a bare `key` any value of it. Requires sign-in.')

/** Public answers come from status pages, which show no tags: a tag filter there would silently match everything. */
export function assertTagsSignedIn(audience: { kind: string }, tags: readonly string[] | undefined): void {
  if (audience.kind === 'public' && tags && tags.length > 0) {
    throw new GuardError('VALIDATION_ERROR', 'tags: filtering by tag requires sign-in')
  }
}

export const tagKey = z
  .string()
  .max(200)
  .transform((raw) => raw.trim().toLowerCase())
  .superRefine((key, check) => {
    const problem = keyProblem(key)
    if (problem) check.addIssue({ code: 'custom', message: problem })
  })

export const tagColor = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'a colour is #rrggbb')
  .transform((color) => color.toLowerCase())

export const setTagColorInput = z.object({ color: tagColor }).strict()

export const tagView = z.object({
  tag: z.string().describe('`key` or `key:value`'),
  key: z.string(),
  value: z.string().nullable(),
  color: z.string().describe("The key's colour: set with PUT /api/tags/{key}, or derived from the key's name"),
  colorSet: z.boolean(),
  counts: z.object({ domain: z.number(), service: z.number(), heartbeat: z.number(), device: z.number() }),
  total: z.number(),
})
export type TagView = z.infer<typeof tagView>
