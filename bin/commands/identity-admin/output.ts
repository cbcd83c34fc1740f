import { GuardError } from '@guard/shared'

export const printJson = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
}

export function usageError(usage: string): never {
  process.stderr.write(`usage: ${usage}\n`)
  process.exit(2)
}

/** `--help` anywhere in a group's arguments prints its usage and exits 0, before anything is opened. */
export function helpRequested(args: string[], usage: string): void {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`usage: ${usage}\n`)
    process.exit(0)
  }
}

/** A refused command (bad input, conflict) prints its code as JSON on stderr and exits 1. */
export function exitOnGuardError(error: unknown): never {
  if (error instanceof GuardError) {
    process.stderr.write(`${JSON.stringify({ error: error.code, message: error.message })}\n`)
    process.exit(1)
  }
  throw error
}
