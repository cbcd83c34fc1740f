import { api, type Envelope } from '../api.ts'
import { Field } from '../components/form.tsx'
import { useResource } from '../components/use-api.ts'

/** One protocol as `GET /api/protocols` describes it. */
export interface ProtocolInfo {
  kind: string
  label: string
  description: string
  builtIn: boolean
  defaultPort?: number
  options: JsonSchema
  secretFields: string[]
}

/** The part of JSON Schema the form reads: enough to pick an input for each option. */
interface JsonSchema {
  type?: string | string[]
  enum?: unknown[]
  description?: string
  items?: JsonSchema
  properties?: Record<string, JsonSchema>
  minimum?: number
  maximum?: number
  maxLength?: number
}

/** Every option as its input holds it: text, or a checkbox's state. */
export type OptionValues = Record<string, string | boolean>

export const useProtocols = () =>
  useResource(async () => (await api.get<Envelope<ProtocolInfo[]>>('/api/protocols')).data, [])

const typeOf = (schema: JsonSchema) => (Array.isArray(schema.type) ? schema.type[0] : schema.type)
const isTextList = (schema: JsonSchema) => typeOf(schema) === 'array' && typeOf(schema.items ?? {}) === 'string'
const isScalar = (schema: JsonSchema) =>
  schema.enum !== undefined || ['string', 'integer', 'number', 'boolean'].includes(typeOf(schema) ?? '')

const labelOf = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (first) => first.toUpperCase())

/** A stored configuration's options as the inputs show them; secrets are never there. */
export function optionValuesOf(config: Record<string, unknown>): OptionValues {
  const values: OptionValues = {}
  for (const [name, value] of Object.entries(config)) {
    if (['host', 'port', 'secretsSet'].includes(name) || value === undefined || value === null) continue
    if (typeof value === 'boolean' || typeof value === 'string') values[name] = value
    else if (typeof value === 'number') values[name] = String(value)
    else if (Array.isArray(value) && value.every((item) => typeof item === 'string')) values[name] = value.join('\n')
    else values[name] = JSON.stringify(value, null, 2)
  }
  return values
}

/**
 * The options as `protocolConfig` takes them: empty inputs left out (an empty secret keeps the
 * stored one), numbers and JSON parsed, lists one entry a line. Throws with the option's label.
 */
export function optionConfigOf(protocol: ProtocolInfo, values: OptionValues): Record<string, unknown> {
  const config: Record<string, unknown> = {}
  for (const [name, schema] of Object.entries(protocol.options.properties ?? {})) {
    const value = values[name]
    if (value === undefined || value === '') continue
    const type = typeOf(schema)
    if (typeof value === 'boolean') config[name] = value
    else if (schema.enum) config[name] = schema.enum.find((choice) => String(choice) === value) ?? value
    else if (type === 'integer' || type === 'number') {
      const number = Number(value)
      if (Number.isNaN(number)) throw new Error(`${labelOf(name)} must be a number`)
      config[name] = number
    } else if (isTextList(schema)) {
      config[name] = value
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean)
    } else if (type === 'string') config[name] = value
    else {
      try {
        config[name] = JSON.parse(value)
      } catch {
        throw new Error(`${labelOf(name)} must be JSON`)
      }
    }
  }
  for (const name of protocol.secretFields) {
    if (typeof values[name] === 'string' && values[name] !== '') config[name] = values[name]
  }
  return config
}

/** The inputs of a registry protocol's options, each chosen from its JSON Schema. */
export function ProtocolOptionFields({
  protocol,
  values,
  onChange,
  secretsSet,
}: {
  protocol: ProtocolInfo
  values: OptionValues
  onChange: (values: OptionValues) => void
  /** Editing a service whose secrets are stored: an empty secret input keeps them. */
  secretsSet: boolean
}) {
  const set = (name: string, value: string | boolean) => onChange({ ...values, [name]: value })
  const textOf = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : '')
  return (
    <>
      <p class="muted">{protocol.description}</p>
      {Object.entries(protocol.options.properties ?? {}).map(([name, schema]) => {
        const type = typeOf(schema)
        if (type === 'boolean') {
          return (
            <label key={name} class="check" title={schema.description}>
              <input
                type="checkbox"
                checked={values[name] === true}
                onChange={(event) => set(name, event.currentTarget.checked)}
              />{' '}
              {labelOf(name)}
              {schema.description ? <span class="muted"> — {schema.description}</span> : null}
            </label>
          )
        }
        return (
          <Field key={name} label={labelOf(name)} hint={schema.description}>
            {(fieldId, hint) =>
              schema.enum ? (
                <select
                  id={fieldId}
                  aria-describedby={hint}
                  value={textOf(name)}
                  onChange={(event) => set(name, event.currentTarget.value)}
                >
                  <option value="">Default</option>
                  {schema.enum.map((choice) => (
                    <option key={String(choice)} value={String(choice)}>
                      {String(choice)}
                    </option>
                  ))}
                </select>
              ) : isScalar(schema) ? (
                <input
                  id={fieldId}
                  aria-describedby={hint}
                  inputMode={type === 'integer' || type === 'number' ? 'numeric' : undefined}
                  maxLength={schema.maxLength}
                  value={textOf(name)}
                  onInput={(event) => set(name, event.currentTarget.value)}
                />
              ) : (
                <textarea
                  id={fieldId}
                  aria-describedby={hint}
                  rows={isTextList(schema) ? 3 : 4}
                  placeholder={isTextList(schema) ? 'One a line' : 'JSON'}
                  value={textOf(name)}
                  onInput={(event) => set(name, event.currentTarget.value)}
                />
              )
            }
          </Field>
        )
      })}
      {protocol.secretFields.map((name) => (
        <Field
          key={name}
          label={labelOf(name)}
          hint={secretsSet ? 'Set — leave empty to keep' : 'Write-only: never shown again'}
        >
          {(fieldId, hint) => (
            <input
              id={fieldId}
              aria-describedby={hint}
              type="password"
              autoComplete="new-password"
              value={textOf(name)}
              onInput={(event) => set(name, event.currentTarget.value)}
            />
          )}
        </Field>
      ))}
    </>
  )
}
