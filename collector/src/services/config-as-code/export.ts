import { DOCUMENT_VERSION, type GuardDocumentInput } from '@guard/shared/config-as-code'
import { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import type { Fields } from './kind.ts'
import { ADAPTERS, readState } from './state.ts'

export const exportView = z.object({
  document: z.record(z.string(), z.unknown()).describe('The guard.yaml document'),
  secrets: z
    .array(z.object({ variable: z.string(), kind: z.string(), id: z.string(), field: z.string() }))
    .describe('The environment variables the document names in place of write-only values'),
})
export type ExportView = { document: GuardDocumentInput; secrets: z.infer<typeof exportView>['secrets'] }

/** `GUARD_DOMAIN_SHOP_CREDENTIALS_PASSWORD`: the variable export names for a write-only value. */
export const secretVariable = (kind: string, key: string, path: string) =>
  `GUARD_${kind}_${key}_${path}`.toUpperCase().replace(/[^A-Z0-9]+/g, '_')

function setPath(fields: Fields, path: readonly string[], value: string): Fields {
  const [head, ...rest] = path
  if (head === undefined) return fields
  const inner = (fields[head] ?? {}) as Fields
  return { ...fields, [head]: rest.length === 0 ? value : setPath(inner, rest, value) }
}

const isEmpty = (value: unknown) =>
  value === null || value === undefined || (Array.isArray(value) && value.length === 0)

/**
 * The organization as a document plan shows as no change: objects without a key get the one
 * plan derives too, and write-only values are environment references, listed, never written.
 */
export async function exportConfig({ ctx, caller }: { ctx: CollectorContext; caller: Caller }): Promise<ExportView> {
  const state = await readState({ ctx, caller, document: undefined })
  const secrets: ExportView['secrets'] = []
  const document: Record<string, unknown> = { version: DOCUMENT_VERSION }
  for (const adapter of ADAPTERS) {
    const entries = (state.objects.get(adapter.kind) ?? []).map((object) => {
      let fields = Object.fromEntries(
        Object.entries(object.fields(state.references)).filter(([, value]) => !isEmpty(value)),
      )
      for (const path of object.secrets ?? []) {
        const variable = secretVariable(adapter.kind, object.key, path)
        secrets.push({ variable, kind: adapter.kind, id: object.key, field: path })
        fields = setPath(fields, path.split('.'), `\${env:${variable}}`)
      }
      return { id: object.key, ...fields }
    })
    if (entries.length > 0) document[adapter.list] = entries.sort((a, b) => (a.id < b.id ? -1 : 1))
  }
  return { document: document as GuardDocumentInput, secrets }
}
