import { readFile } from 'node:fs/promises'
import { parseIdentityEnv, withIdentityStore } from '@guard/identity'
// Not re-exported by @guard/identity's index: only this command needs it.
import { importCatalog } from '../../../identity/src/services/catalog/import.ts'
import { exitOnGuardError, helpRequested, printJson, usageError } from './output.ts'

const USAGE = 'guard identity catalog import FILE.json'

/** Publishes a catalog document (plans, addons, bundles, features, addOnCaps), replacing the current one. */
export async function catalogCommand(args: string[]): Promise<void> {
  helpRequested(args, USAGE)
  const [action, file, ...rest] = args
  if (action !== 'import' || !file || rest.length > 0) usageError(USAGE)
  const document = await readJson(file)
  printJson(await withIdentityStore(parseIdentityEnv(), (sql) => importCatalog(sql, document)).catch(exitOnGuardError))
}

export async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8'))
  } catch (error) {
    process.stderr.write(
      `${JSON.stringify({ error: 'VALIDATION_ERROR', message: `${file}: ${(error as Error).message}` })}\n`,
    )
    process.exit(1)
  }
}
