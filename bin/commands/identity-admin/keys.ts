import { pickAction } from '../../cli-kit.ts'
import { callAdmin } from './admin-api.ts'
import { helpRequested, printJson, requirePositionals } from './output.ts'

const USAGE = 'guard identity keys rotate'

/**
 * Signs new tokens with a fresh key; the old key stays in the JWKS as `previous`, so tokens it
 * signed verify until they expire. Rotate again no sooner than the access token lifetime (15 min).
 */
export async function keysCommand(args: string[]): Promise<void> {
  helpRequested(args, USAGE)
  pickAction(args[0], ['rotate'], 'identity keys')
  requirePositionals('keys', args.slice(1), [])
  printJson(await callAdmin({ method: 'POST', path: '/keys/rotate' }))
}
