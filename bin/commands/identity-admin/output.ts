import { GuardError } from '@guard/shared'
import { answerHelp, CommandFailed, UsageError } from '../../cli-kit.ts'

export const printJson = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
}

/** A problem printed as JSON on stderr, exit 1: scripts parse identity admin's answers. */
export const problem = (error: string, message: string): CommandFailed =>
  new CommandFailed(JSON.stringify({ error, message }))

/** `--help` anywhere in a group's arguments prints its usage and exits 0, before anything is opened. */
export function helpRequested(args: string[], usage: string): void {
  answerHelp(args, `usage: ${usage}`)
}

/** A wrong command line of `guard identity <group>`, naming what is wrong. */
export function usageError(group: string, message: string): never {
  throw new UsageError(message, `identity ${group}`)
}

/** Refuses a command line that lacks one of `required` options, naming the missing ones. */
export function requireOptions(group: string, values: Record<string, unknown>, required: readonly string[]): void {
  const missing = required.filter((name) => values[name] === undefined || values[name] === '')
  if (missing.length > 0) usageError(group, `missing ${missing.map((name) => `--${name}`).join(', ')}`)
}

/** Refuses fewer positionals than `names` (named in the message) or more than `names` allows. */
export function requirePositionals(group: string, positionals: readonly string[], names: readonly string[]): void {
  const extra = positionals[names.length]
  if (extra !== undefined) usageError(group, `unexpected argument '${extra}'`)
  const missing = names.slice(positionals.length)
  if (missing.length > 0) usageError(group, `missing ${missing.join(' ')}`)
}

/** A refusal by the service (bad input, conflict) becomes the JSON problem on stderr. */
export function asCommandFailed(error: unknown): never {
  if (error instanceof GuardError) throw problem(error.code, error.message)
  throw error
}
