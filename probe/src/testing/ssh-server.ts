import { createHash } from 'node:crypto'
import type { Server } from 'ssh2'
import { listenLocal } from './fixtures.ts'

export interface SshServerFixture {
  port: number
  /** The host key's fingerprint as `ssh-keygen -lf` prints it. */
  fingerprint: string
  close(): Promise<void>
}

/** ssh2's server on 127.0.0.1 with a fresh ed25519 host key; it rejects every login attempt. */
export async function startSshServer(): Promise<SshServerFixture> {
  // Node's ESM view of ssh2 names only some of its exports; the default export is all of them.
  const { Server: SshServer, utils } = (await import('ssh2')).default
  const keys = utils.generateKeyPairSync('ed25519')
  const server: Server = new SshServer({ hostKeys: [keys.private], ident: 'GuardFixture_1.0' }, (client) => {
    client.on('error', () => {})
    client.on('authentication', (context) => context.reject())
  })
  const parsed = utils.parseKey(keys.public)
  if (parsed instanceof Error) throw parsed
  const digest = createHash('sha256').update(parsed.getPublicSSH()).digest('base64')
  const port = await listenLocal(server)
  return {
    port,
    fingerprint: `SHA256:${digest.replace(/=+$/, '')}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
