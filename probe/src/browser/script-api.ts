import vm from 'node:vm'
import type { Page } from 'playwright-core'
import { makeExpect } from './expect.ts'

export interface ScriptHooks {
  onStepStart(name: string): void
  onStepEnd(name: string, status: 'passed' | 'failed', durationMs: number): void
  onLog(text: string): void
}

export interface LoadedScript {
  name: string
  body: (fixtures: { page: Page }) => Promise<void>
  /** The innermost step that failed, once one has. */
  failedStep(): string | undefined
}

export interface LoadScriptOptions {
  secrets: Record<string, string>
  expectTimeoutMs: number
  hooks: ScriptHooks
}

/** Playwright test files start with this line; it names what the sandbox already provides. */
const PLAYWRIGHT_IMPORT = /^\s*import\s*\{[^}]*\}\s*from\s*['"]@playwright\/test['"]\s*;?\s*$/gm

/** How long the script's top level may run before its `test(...)` must have been declared. */
const DECLARE_TIMEOUT_MS = 1000

const describe = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)))

/**
 * Evaluates a browser script's body in a vm context holding only `test`, `expect`, `secrets` and
 * `console`: no `require`, `process`, `import()` or string evaluation. The vm is not a security
 * boundary on its own (objects handed in lead back to this realm); the process around it is:
 * it runs with an empty environment in an empty directory, away from the probe.
 */
export function loadScript(source: string, options: LoadScriptOptions): LoadedScript {
  const declared: Array<{ name: string; body: LoadedScript['body'] }> = []
  let failedStep: string | undefined
  const test = Object.assign(
    (name: unknown, body: unknown) => {
      if (typeof name !== 'string' || typeof body !== 'function')
        throw new TypeError('test(name, async ({ page }) => { … })')
      declared.push({ name, body: body as LoadedScript['body'] })
    },
    {
      step: async <T>(name: unknown, body: () => Promise<T>): Promise<T> => {
        if (typeof name !== 'string' || typeof body !== 'function')
          throw new TypeError('test.step(name, async () => { … })')
        const started = performance.now()
        options.hooks.onStepStart(name)
        try {
          const value = await body()
          options.hooks.onStepEnd(name, 'passed', performance.now() - started)
          return value
        } catch (error) {
          failedStep ??= name
          options.hooks.onStepEnd(name, 'failed', performance.now() - started)
          throw error
        }
      },
    },
  )
  const log = (...values: unknown[]) => options.hooks.onLog(values.map(describe).join(' '))
  const globals = Object.assign(Object.create(null) as object, {
    test,
    expect: makeExpect(options.expectTimeoutMs),
    secrets: Object.freeze({ ...options.secrets }),
    console: Object.freeze({ log, info: log, warn: log, error: log, debug: log }),
  })
  const context = vm.createContext(globals, { codeGeneration: { strings: false, wasm: false } })
  new vm.Script(source.replace(PLAYWRIGHT_IMPORT, ''), { filename: 'script.js' }).runInContext(context, {
    timeout: DECLARE_TIMEOUT_MS,
  })
  if (declared.length !== 1)
    throw new Error(`a script declares exactly one test(...); this one declares ${declared.length}`)
  const [only] = declared as [(typeof declared)[number]]
  return { ...only, failedStep: () => failedStep }
}
