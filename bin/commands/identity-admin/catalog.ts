import { readFile } from 'node:fs/promises'
import { parseIdentityEnv, withIdentityStore } from '@guard/identity'
// Not re-exported by @guard/identity's index: only this command needs it.
import { importCatalog } from '../../../identity/src/services/catalog/import.ts'
import { pickAction } from '../../cli-kit.ts'
import { asCommandFailed, helpRequested, printJson, problem, requirePositionals } from './output.ts'

const USAGE = 'guard identity catalog import FILE.json'

/** Publishes a catalog document (plans, addons, bundles, features, addOnCaps), replacing the current one. */
export async function catalogCommand(args: string[]): Promise<void> {
  helpRequested(args, USAGE)
  pickAction(args[0], ['import'], 'identity catalog')
  requirePositionals('catalog', args.slice(1), ['FILE.json'])
  const document = await readJson(args[1] as string)
  printJson(await withIdentityStore(parseIdentityEnv(), (sql) => importCatalog(sql, document)).catch(asCommandFailed))
}

export async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8'))
  } catch (error) {
    throw problem('VALIDATION_ERROR', `${file}: ${(error as Error).message}`)
  }
}
