import { placeholder, type SecretReference, secretReference } from './keys.ts'
import type { Unmapped } from './report.ts'

/** What every mapping step adds to: the items left behind and the secrets replaced by references. */
export interface ImportContext {
  unmapped: Unmapped[]
  secrets: SecretReference[]
  leave(source: string, item: string, reason: string): void
  /** The `${env:…}` reference written in place of a secret of entry `id` of `list`. */
  secret(list: string, id: string, field: string): string
}

const KINDS: Record<string, string> = {
  channels: 'channel',
  domains: 'domain',
  services: 'service',
  heartbeats: 'heartbeat',
  statusPages: 'status_page',
}

export function importContext(): ImportContext {
  const context: ImportContext = {
    unmapped: [],
    secrets: [],
    leave: (source, item, reason) => context.unmapped.push({ source, item, reason }),
    secret: (list, id, field) => {
      const reference = secretReference(KINDS[list] ?? list, id, field.split('.').at(-1)!, `${list}.${id}.${field}`)
      context.secrets.push(reference)
      return placeholder(reference)
    },
  }
  return context
}
