import { callAdmin } from './admin-api.ts'
import { helpRequested, printJson, usageError } from './output.ts'

const USAGE = 'guard identity keys rotate'

/**
 * Signs new tokens with a fresh key; the old key stays in the JWKS as `previous`, so tokens it
 * signed verify until they expire. Rotate again no sooner than the access token lifetime (15 min).
 */
export async function keysCommand(args: string[]): Promise<void> {
  helpRequested(args, USAGE)
  if (args[0] !== 'rotate' || args.length > 1) usageError(USAGE)
  printJson(await callAdmin({ method: 'POST', path: '/keys/rotate' }))
}
