import { isDeepStrictEqual } from 'node:util'
import type { Locator, Page } from 'playwright-core'

/**
 * The subset of `@playwright/test`'s `expect` a browser script may use. Locator and page
 * matchers retry until they pass or their timeout ends (Playwright's web-first assertions);
 * value matchers check once. Every matcher has `.not`.
 */
export const LOCATOR_MATCHERS = [
  'toBeVisible',
  'toBeHidden',
  'toBeEnabled',
  'toBeDisabled',
  'toBeChecked',
  'toHaveText',
  'toContainText',
  'toHaveValue',
  'toHaveAttribute',
  'toHaveCount',
] as const
export const PAGE_MATCHERS = ['toHaveURL', 'toHaveTitle'] as const
export const VALUE_MATCHERS = [
  'toBe',
  'toEqual',
  'toBeTruthy',
  'toBeFalsy',
  'toBeDefined',
  'toBeUndefined',
  'toContain',
  'toMatch',
  'toBeGreaterThan',
  'toBeLessThan',
] as const

type Expected = string | RegExp
interface TimeoutOption {
  timeout?: number
}

class AssertionError extends Error {
  override name = 'AssertionError'
}

// Values made in the script's vm context have that context's prototypes: `instanceof` fails
// across the boundary, the internal class tag does not.
const isRegExp = (value: unknown): value is RegExp => Object.prototype.toString.call(value) === '[object RegExp]'
const isLocator = (value: unknown): value is Locator =>
  typeof value === 'object' && value !== null && 'allInnerTexts' in value && 'waitFor' in value
const isPage = (value: unknown): value is Page =>
  typeof value === 'object' && value !== null && 'goto' in value && 'mainFrame' in value

const normalize = (text: string) => text.replace(/\s+/g, ' ').trim()
const show = (value: unknown) => (isRegExp(value) ? String(value) : JSON.stringify(value))
const matchesText = (actual: string, expected: Expected, whole: boolean) => {
  if (isRegExp(expected)) return new RegExp(expected.source, expected.flags).test(actual)
  return whole ? actual === normalize(expected) : actual.includes(normalize(expected))
}
const toPlain = (value: unknown) => {
  try {
    return structuredClone(value)
  } catch {
    return value
  }
}

/** One probe of a retrying matcher: whether it holds, and what was seen. */
type Probe = () => Promise<{ pass: boolean; received: unknown }>

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function retry(
  subject: string,
  matcher: string,
  expected: unknown,
  probe: Probe,
  negate: boolean,
  timeoutMs: number,
) {
  const deadline = performance.now() + timeoutMs
  let received: unknown
  for (;;) {
    try {
      const outcome = await probe()
      received = outcome.received
      if (outcome.pass !== negate) return
    } catch (error) {
      received = `error: ${(error as Error).message.split('\n')[0]}`
    }
    if (performance.now() >= deadline) break
    await sleep(100)
  }
  throw new AssertionError(
    `expect(${subject})${negate ? '.not' : ''}.${matcher}() failed\nExpected: ${show(expected)}\nReceived: ${show(received)}\nTimeout: ${timeoutMs}ms`,
  )
}

function locatorMatchers(locator: Locator, negate: boolean, defaultTimeoutMs: number) {
  const run = (matcher: string, expected: unknown, probe: Probe, options?: TimeoutOption) =>
    retry(String(locator), matcher, expected, probe, negate, options?.timeout ?? defaultTimeoutMs)
  const texts = async () => normalize((await locator.allInnerTexts()).join(' '))
  const state = (check: () => Promise<boolean>) => async () => {
    const pass = await check()
    return { pass, received: pass }
  }
  return {
    toBeVisible: (options?: TimeoutOption) =>
      run(
        'toBeVisible',
        true,
        state(() => locator.isVisible()),
        options,
      ),
    toBeHidden: (options?: TimeoutOption) =>
      run(
        'toBeHidden',
        true,
        state(() => locator.isHidden()),
        options,
      ),
    toBeEnabled: (options?: TimeoutOption) =>
      run(
        'toBeEnabled',
        true,
        state(() => locator.isEnabled({ timeout: 100 })),
        options,
      ),
    toBeDisabled: (options?: TimeoutOption) =>
      run(
        'toBeDisabled',
        true,
        state(() => locator.isDisabled({ timeout: 100 })),
        options,
      ),
    toBeChecked: (options?: TimeoutOption) =>
      run(
        'toBeChecked',
        true,
        state(() => locator.isChecked({ timeout: 100 })),
        options,
      ),
    toHaveText: (expected: Expected, options?: TimeoutOption) =>
      run(
        'toHaveText',
        expected,
        async () => {
          const actual = await texts()
          return { pass: (await locator.count()) > 0 && matchesText(actual, expected, true), received: actual }
        },
        options,
      ),
    toContainText: (expected: Expected, options?: TimeoutOption) =>
      run(
        'toContainText',
        expected,
        async () => {
          const actual = await texts()
          return { pass: (await locator.count()) > 0 && matchesText(actual, expected, false), received: actual }
        },
        options,
      ),
    toHaveValue: (expected: Expected, options?: TimeoutOption) =>
      run(
        'toHaveValue',
        expected,
        async () => {
          const actual = await locator.inputValue({ timeout: 100 })
          return {
            pass: isRegExp(expected) ? matchesText(actual, expected, true) : actual === expected,
            received: actual,
          }
        },
        options,
      ),
    toHaveAttribute: (name: string, expected: Expected, options?: TimeoutOption) =>
      run(
        'toHaveAttribute',
        expected,
        async () => {
          const actual = await locator.getAttribute(name, { timeout: 100 })
          const pass =
            actual !== null && (isRegExp(expected) ? matchesText(actual, expected, true) : actual === expected)
          return { pass, received: actual }
        },
        options,
      ),
    toHaveCount: (expected: number, options?: TimeoutOption) =>
      run(
        'toHaveCount',
        expected,
        async () => {
          const actual = await locator.count()
          return { pass: actual === expected, received: actual }
        },
        options,
      ),
  }
}

function pageMatchers(page: Page, negate: boolean, defaultTimeoutMs: number) {
  const run = (matcher: string, expected: Expected, read: () => Promise<string>, options?: TimeoutOption) =>
    retry(
      'page',
      matcher,
      expected,
      async () => {
        const actual = await read()
        return {
          pass: isRegExp(expected) ? matchesText(actual, expected, true) : actual === expected,
          received: actual,
        }
      },
      negate,
      options?.timeout ?? defaultTimeoutMs,
    )
  return {
    toHaveURL: (expected: Expected, options?: TimeoutOption) =>
      run('toHaveURL', expected, async () => page.url(), options),
    toHaveTitle: (expected: Expected, options?: TimeoutOption) =>
      run('toHaveTitle', expected, () => page.title(), options),
  }
}

function valueMatchers(actual: unknown, negate: boolean) {
  const check = (matcher: string, pass: boolean, expected?: unknown) => {
    if (pass === negate) {
      throw new AssertionError(
        `expect(received)${negate ? '.not' : ''}.${matcher}(${expected === undefined ? '' : show(expected)}) failed\nReceived: ${show(actual)}`,
      )
    }
  }
  return {
    toBe: (expected: unknown) => check('toBe', Object.is(actual, expected), expected),
    toEqual: (expected: unknown) => check('toEqual', isDeepStrictEqual(toPlain(actual), toPlain(expected)), expected),
    toBeTruthy: () => check('toBeTruthy', Boolean(actual)),
    toBeFalsy: () => check('toBeFalsy', !actual),
    toBeDefined: () => check('toBeDefined', actual !== undefined),
    toBeUndefined: () => check('toBeUndefined', actual === undefined),
    toContain: (expected: unknown) =>
      check(
        'toContain',
        typeof actual === 'string'
          ? typeof expected === 'string' && actual.includes(expected)
          : Array.isArray(actual) && actual.includes(expected),
        expected,
      ),
    toMatch: (expected: Expected) =>
      check('toMatch', typeof actual === 'string' && matchesText(actual, expected, false), expected),
    toBeGreaterThan: (expected: number) =>
      check('toBeGreaterThan', typeof actual === 'number' && actual > expected, expected),
    toBeLessThan: (expected: number) =>
      check('toBeLessThan', typeof actual === 'number' && actual < expected, expected),
  }
}

/** `expect` as the script sees it; `timeoutMs` is the default of the retrying matchers. */
export function makeExpect(timeoutMs: number) {
  const matchers = (value: unknown, negate: boolean) => {
    if (isLocator(value)) return locatorMatchers(value, negate, timeoutMs)
    if (isPage(value)) return pageMatchers(value, negate, timeoutMs)
    return valueMatchers(value, negate)
  }
  return (value: unknown) => Object.assign(matchers(value, false), { not: matchers(value, true) })
}
