// The one argument parser and the one error printer of every `guard` command. Commands throw;
// only report() decides what the operator sees and the exit status, so every command answers
// --help, names a wrong word and never shows a stack trace (unless --debug) the same way.
// Kept free of Guard's stores and services: the device agent's bundle imports it too.
import { inspect, parseArgs as nodeParseArgs, type ParseArgsConfig } from 'node:util'
import { ConfigError } from '@guard/shared/config-error'
import { GuardError } from '@guard/shared/errors'

/** Exit statuses, documented in the README's "Command line" section; sysexits(3) where one fits. */
export const EXIT = {
  ok: 0,
  /** The command ran and the answer is no: a target is down, the server refused the request. */
  failed: 1,
  usage: 2,
  /** EX_UNAVAILABLE: nothing answers at the collector's or identity's address. */
  unavailable: 69,
  /** EX_SOFTWARE: a bug; --debug prints its stack trace. */
  internal: 70,
  /** EX_CONFIG: an environment variable or configuration file is invalid. */
  config: 78,
} as const

/** A wrong command line; the message names the offending word. */
export class UsageError extends Error {
  override name = 'UsageError'
  /** The (sub)command whose --help to point at, e.g. `agent enroll`; else the command run. */
  constructor(
    message: string,
    readonly scope?: string,
  ) {
    super(message)
  }
}

/** Thrown by the parser on --help or -h, so a command's usage prints before anything is opened. */
export class HelpRequested extends Error {
  override name = 'HelpRequested'
  constructor(readonly usage: string) {
    super('help requested')
  }
}

/** The collector or identity does not answer: Guard is not running, or runs elsewhere. */
export class UnavailableError extends Error {
  override name = 'UnavailableError'
}

/** A refusal already worded for the operator (identity admin prints its problem as JSON). */
export class CommandFailed extends Error {
  override name = 'CommandFailed'
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failed,
  ) {
    super(message)
  }
}

/** Optimal string alignment distance: a swapped pair of letters is one typo, not two. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)])
  for (let j = 1; j <= b.length; j++) (d[0] as number[])[j] = j
  const at = (i: number, j: number) => (d[i] as number[])[j] as number
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1)
      ;(d[i] as number[])[j] = best
    }
  }
  return at(a.length, b.length)
}

/** ` (did you mean 'x'?)` for a near miss among `candidates`, else nothing. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const allowed = Math.max(1, Math.floor(word.length / 3))
  let best: { candidate: string; score: number } | undefined
  for (const candidate of candidates) {
    const score = distance(word, candidate)
    if (score <= allowed && (!best || score < best.score)) best = { candidate, score }
  }
  return best ? ` (did you mean '${best.candidate}'?)` : ''
}

const isHelp = (arg: string) => arg === '--help' || arg === '-h'

/** Throws HelpRequested when `args` ask for help, whatever else they hold. */
export function answerHelp(args: readonly string[], usage: string): void {
  if (args.some(isHelp)) throw new HelpRequested(usage)
}

type Parsed<T extends ParseArgsConfig> = ReturnType<typeof nodeParseArgs<T>>

/**
 * node:util parseArgs, strict, with --help answered first and its errors reworded to name the
 * offending word and suggest the option meant.
 */
export function parseArgs<T extends ParseArgsConfig & { args: string[] }>(
  config: T & { usage: string; scope?: string },
): Parsed<T> {
  answerHelp(config.args, config.usage)
  const { scope } = config
  try {
    return nodeParseArgs<T>({ ...config, strict: true })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const message = (error as Error).message
    const quoted = /'([^']*)'/.exec(message)?.[1] ?? ''
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const known = [...Object.keys(config.options ?? {}).map((name) => `--${name}`), '--help', '--debug']
      throw new UsageError(`unknown option '${quoted}'${didYouMean(quoted.split('=')[0] ?? quoted, known)}`, scope)
    }
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') throw new UsageError(`unexpected argument '${quoted}'`, scope)
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      const option = /--[\w-]+/.exec(quoted)?.[0] ?? quoted
      throw new UsageError(
        message.includes('does not take') ? `option '${option}' takes no value` : `option '${option}' needs a value`,
        scope,
      )
    }
    throw error
  }
}

/** The action `word` names among `actions`, or a UsageError naming it. */
export function pickAction<A extends string>(word: string | undefined, actions: readonly A[], scope?: string): A {
  if (word === undefined) throw new UsageError(`missing action (one of: ${actions.join(', ')})`, scope)
  if ((actions as readonly string[]).includes(word)) return word as A
  throw new UsageError(`unknown action '${word}'${didYouMean(word, actions)}`, scope)
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
])

/** The code of a connection failure anywhere in undici's chain of causes, if that is what `error` is. */
export function connectionFailure(error: unknown): string | undefined {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as NodeJS.ErrnoException).code
    if (code && UNREACHABLE.has(code)) return code
    const inner = cause instanceof AggregateError ? cause.errors.map(connectionFailure).find(Boolean) : undefined
    if (inner) return inner
  }
  return undefined
}

export const COLLECTOR = { name: 'the collector', env: 'GUARD_COLLECTOR_URL' }
export const IDENTITY = { name: 'identity', env: 'GUARD_IDENTITY_URL' }
/** Where `guard start` puts the collector when neither GUARD_COLLECTOR_URL nor credentials.json says. */
export const DEFAULT_COLLECTOR_URL = 'http://127.0.0.1:4001'

/**
 * fetch() towards one of Guard's own services: a connection that fails or times out becomes an
 * UnavailableError that says where the CLI looked and how to point it elsewhere.
 */
export async function fetchService(
  service: { name: string; env: string },
  url: URL,
  init: RequestInit,
): Promise<Response> {
  try {
    return await fetch(url, init)
  } catch (error) {
    const code = connectionFailure(error)
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError'
    if (!code && !timedOut) throw error
    throw new UnavailableError(
      `${service.name} at ${url.origin} ${timedOut ? 'did not answer in time' : `is not answering (${code})`}; ` +
        `start Guard, or set ${service.env} to where it runs`,
    )
  }
}

export interface Io {
  stdout(text: string): void
  stderr(text: string): void
}

export const processIo: Io = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}

/** Prints what `error` means to the operator and returns the exit status. */
export function report(error: unknown, command: string, io: Io, debug: boolean): number {
  const prefix = command ? `guard ${command}` : 'guard'
  if (error instanceof HelpRequested) {
    io.stdout(`${error.usage}\n`)
    return EXIT.ok
  }
  if (error instanceof UsageError) {
    const scoped = error.scope ? `guard ${error.scope}` : prefix
    io.stderr(`${scoped}: ${error.message}\nRun '${scoped} --help' for usage.\n`)
    return EXIT.usage
  }
  // inspect(), not .stack: undici's reason is in the cause.
  const trace = debug ? `${inspect(error)}\n` : ''
  if (error instanceof ConfigError) {
    io.stderr(`${error.message}\n${trace}`)
    return EXIT.config
  }
  if (error instanceof CommandFailed) {
    io.stderr(`${error.message}\n${trace}`)
    return error.exitCode
  }
  if (error instanceof UnavailableError) {
    io.stderr(`${prefix}: ${error.message}\n${trace}`)
    return EXIT.unavailable
  }
  const code = connectionFailure(error)
  if (code) {
    io.stderr(`${prefix}: a service Guard needs is not answering (${code})\n${trace}`)
    return EXIT.unavailable
  }
  if (error instanceof GuardError) {
    io.stderr(`${prefix}: ${error.message}\n${trace}`)
    return EXIT.failed
  }
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : ''
  const message = error instanceof Error ? error.message : String(error)
  io.stderr(trace || `${prefix}: ${message}${cause}; --debug prints the stack trace\n`)
  return EXIT.internal
}
