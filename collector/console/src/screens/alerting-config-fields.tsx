import { Field } from '../components/form.tsx'
import type { JsonSchema, Provider } from './alerting-shared.tsx'

/** What the form holds per setting: text as typed (lists and records one entry a line) or a switch. */
export type ConfigDraft = Record<string, string | boolean>

type Kind = 'boolean' | 'number' | 'enum' | 'list' | 'record' | 'text'

function kindOf(schema: JsonSchema): Kind {
  if (schema.enum) return 'enum'
  if (schema.type === 'boolean') return 'boolean'
  if (schema.type === 'integer' || schema.type === 'number') return 'number'
  if (schema.type === 'array') return 'list'
  if (schema.type === 'object') return 'record'
  return 'text'
}

const WORDS: Record<string, string> = { url: 'URL', id: 'ID', api: 'API', sid: 'SID' }

/** `webhookUrl` reads "Webhook URL", `chatId` "Chat ID". */
export function fieldLabel(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(' ')
    .map((word) => WORDS[word] ?? word)
  const text = words.join(' ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}

const propertiesOf = (provider: Provider) => Object.entries(provider.configSchema.properties ?? {})

/** The form's starting values: the stored settings, or the schema's defaults; secrets always start empty. */
export function draftOf(provider: Provider, config: Record<string, unknown> = {}): ConfigDraft {
  const draft: ConfigDraft = {}
  for (const [key, schema] of propertiesOf(provider)) {
    const value = config[key]
    const kind = kindOf(schema)
    if (kind === 'boolean') draft[key] = typeof value === 'boolean' ? value : schema.default === true
    else if (provider.secretFields.includes(key) || value === undefined || value === null) draft[key] = ''
    else if (kind === 'list') draft[key] = (value as unknown[]).map(String).join('\n')
    else if (kind === 'record')
      draft[key] = Object.entries(value as Record<string, unknown>)
        .map(([name, item]) => `${name}: ${String(item)}`)
        .join('\n')
    else draft[key] = String(value)
  }
  return draft
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)

/**
 * The settings to send. An empty field is left out: the provider's default applies, and a secret
 * left out keeps its stored value (or is generated, for a new webhook's signing secret).
 */
export function configOf(provider: Provider, draft: ConfigDraft): Record<string, unknown> {
  const config: Record<string, unknown> = {}
  for (const [key, schema] of propertiesOf(provider)) {
    const value = draft[key]
    if (typeof value === 'boolean') {
      config[key] = value
      continue
    }
    if (!value?.trim()) continue
    const kind = kindOf(schema)
    if (kind === 'number') config[key] = Number(value)
    else if (kind === 'list') config[key] = lines(value)
    else if (kind === 'record')
      config[key] = Object.fromEntries(
        lines(value).map((line) => {
          const colon = line.indexOf(':')
          return colon < 0 ? [line, ''] : [line.slice(0, colon).trim(), line.slice(colon + 1).trim()]
        }),
      )
    else config[key] = kind === 'enum' ? value : value.trim()
  }
  return config
}

/** One input per setting of the provider, drawn from its JSON Schema. */
export function ConfigFields({
  provider,
  draft,
  onChange,
  secretsSet,
}: {
  provider: Provider
  draft: ConfigDraft
  onChange: (next: ConfigDraft) => void
  secretsSet: string[]
}) {
  const required = new Set(provider.configSchema.required ?? [])
  const set = (key: string, value: string | boolean) => onChange({ ...draft, [key]: value })
  return (
    <>
      {propertiesOf(provider).map(([key, schema]) => {
        const kind = kindOf(schema)
        const secret = provider.secretFields.includes(key)
        const label = fieldLabel(key)
        if (kind === 'boolean')
          return (
            <label class="check" key={key} title={schema.description}>
              <input
                type="checkbox"
                checked={draft[key] === true}
                onChange={(e) => set(key, e.currentTarget.checked)}
              />
              {label}
            </label>
          )
        const stored = secret && secretsSet.includes(key)
        const hint = [
          stored ? 'Set: leave empty to keep the stored value.' : '',
          kind === 'list' ? 'One a line.' : kind === 'record' ? 'One a line, as Name: value.' : '',
          schema.description ?? '',
          schema.default !== undefined && kind !== 'record' ? `Default: ${String(schema.default)}.` : '',
        ]
          .filter(Boolean)
          .join(' ')
        // A secret is required only when nothing is stored; a webhook's is generated when left out.
        const mandatory = required.has(key) && !secret
        const text = typeof draft[key] === 'string' ? (draft[key] as string) : ''
        return (
          <Field key={key} label={label} hint={hint}>
            {(id, describedBy) =>
              kind === 'enum' ? (
                <select
                  id={id}
                  aria-describedby={describedBy}
                  value={text}
                  onChange={(e) => set(key, e.currentTarget.value)}
                >
                  <option value="">{schema.default !== undefined ? `Default (${String(schema.default)})` : '—'}</option>
                  {(schema.enum ?? []).map((option) => (
                    <option key={String(option)} value={String(option)}>
                      {String(option)}
                    </option>
                  ))}
                </select>
              ) : kind === 'list' || kind === 'record' || key === 'bodyTemplate' ? (
                <textarea
                  id={id}
                  aria-describedby={describedBy}
                  rows={key === 'bodyTemplate' ? 8 : 3}
                  required={mandatory}
                  spellcheck={false}
                  placeholder={stored ? '(set)' : undefined}
                  value={text}
                  onInput={(e) => set(key, e.currentTarget.value)}
                />
              ) : (
                <input
                  id={id}
                  aria-describedby={describedBy}
                  type={secret ? 'password' : kind === 'number' ? 'number' : schema.format === 'uri' ? 'url' : 'text'}
                  autocomplete={secret ? 'new-password' : 'off'}
                  step={kind === 'number' ? (schema.type === 'integer' ? 1 : 'any') : undefined}
                  min={schema.minimum}
                  max={schema.maximum}
                  required={mandatory}
                  placeholder={stored ? '(set)' : schema.default !== undefined ? String(schema.default) : undefined}
                  value={text}
                  onInput={(e) => set(key, e.currentTarget.value)}
                />
              )
            }
          </Field>
        )
      })}
    </>
  )
}
