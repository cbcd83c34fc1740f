import { useEffect, useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { api, type Envelope } from '../api.ts'
import { Field, Form } from '../components/form.tsx'
import { ManagedWarning, useManagedByCode } from '../components/managed-by-code.tsx'
import { ErrorText, Loading, StateDot } from '../components/status.tsx'
import { formatMs } from '../components/time.tsx'
import { useResource } from '../components/use-api.ts'
import {
  type DomainDetail,
  type HttpOptions,
  type Location,
  PHASES,
  type Phases,
  type ServiceItem,
  type ServiceProtocol,
} from '../monitors.ts'
import { useOrg } from '../org.ts'
import { useAction } from '../use-action.ts'
import {
  type OptionValues,
  optionConfigOf,
  optionValuesOf,
  type ProtocolInfo,
  ProtocolOptionFields,
  useProtocols,
} from './protocol-fields.tsx'

type Kind = 'domains' | 'services'

/** Everything the form edits, as the inputs hold it (text), turned into the API's body on submit. */
interface Model {
  name: string
  url: string
  protocol: ServiceProtocol
  host: string
  port: string
  path: string
  checkInterval: string
  timeout: string
  enabled: boolean
  locations: string[]
  failureThreshold: string
  quorumPercent: string
  tags: string
  isApi: boolean
  authType: 'none' | 'basic' | 'bearer'
  credentialsSet: boolean
  username: string
  password: string
  token: string
  method: string
  headers: Array<{ name: string; value: string }>
  body: string
  expectedStatus: string
  keyword: string
  keywordAbsent: boolean
  regex: string
  jsonPath: string
  jsonEquals: string
  followRedirects: boolean
  degradedAboveMs: string
  downAboveMs: string
  /** One condition per line. */
  conditions: string
  ignoreTlsErrors: boolean
  recordType: string
  expected: string
  server: string
  warnDays: string
  count: string
  /** A registry protocol's options, from its JSON Schema (protocol-fields.tsx). */
  options: OptionValues
  secretsSet: boolean
}

const EMPTY: Model = {
  name: '',
  url: 'https://',
  protocol: 'tcp',
  host: '',
  port: '',
  path: '',
  checkInterval: '60',
  timeout: '',
  enabled: true,
  locations: [],
  failureThreshold: '',
  quorumPercent: '',
  tags: '',
  isApi: false,
  authType: 'none',
  credentialsSet: false,
  username: '',
  password: '',
  token: '',
  method: 'GET',
  headers: [],
  body: '',
  expectedStatus: '',
  keyword: '',
  keywordAbsent: false,
  regex: '',
  jsonPath: '',
  jsonEquals: '',
  followRedirects: true,
  degradedAboveMs: '',
  downAboveMs: '',
  conditions: '',
  ignoreTlsErrors: false,
  recordType: 'A',
  expected: '',
  server: '',
  warnDays: '',
  count: '',
  options: {},
  secretsSet: false,
}

/** The picker's choices until `GET /api/protocols` answers. */
const BUILTIN_PROTOCOLS = [
  { kind: 'tcp', label: 'TCP port' },
  { kind: 'http', label: 'HTTP' },
  { kind: 'https', label: 'HTTPS' },
  { kind: 'dns', label: 'DNS record' },
  { kind: 'tls', label: 'TLS certificate' },
  { kind: 'icmp', label: 'Ping (ICMP)' },
]

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']
const RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SOA', 'SRV', 'CAA', 'PTR']
const isHttp = (kind: Kind, protocol: ServiceProtocol) =>
  kind === 'domains' || protocol === 'http' || protocol === 'https'

function httpModel(options: HttpOptions): Partial<Model> {
  return {
    method: options.method ?? 'GET',
    headers: Object.entries(options.headers ?? {}).map(([name, value]) => ({ name, value })),
    body: options.body ?? '',
    expectedStatus: (options.expectedStatus ?? []).join(', '),
    keyword: options.keyword ?? '',
    keywordAbsent: options.keywordAbsent ?? false,
    regex: options.regex ?? '',
    jsonPath: options.jsonPath?.path ?? '',
    jsonEquals: options.jsonPath?.equals === undefined ? '' : JSON.stringify(options.jsonPath.equals),
    followRedirects: options.followRedirects ?? true,
    degradedAboveMs: options.degradedAboveMs === undefined ? '' : String(options.degradedAboveMs),
    ignoreTlsErrors: options.ignoreTlsErrors ?? false,
    conditions: (options.conditions ?? []).join('\n'),
  }
}

function domainModel(domain: DomainDetail): Model {
  return {
    ...EMPTY,
    ...httpModel(domain),
    name: domain.name,
    url: domain.url,
    checkInterval: String(domain.checkInterval),
    timeout: domain.timeout === undefined ? '' : String(domain.timeout),
    enabled: domain.enabled,
    locations: domain.locations ?? [],
    failureThreshold: domain.failureThreshold === undefined ? '' : String(domain.failureThreshold),
    quorumPercent: domain.quorumPercent === undefined ? '' : String(domain.quorumPercent),
    tags: (domain.tags ?? []).join(', '),
    isApi: domain.isApi ?? false,
    authType: domain.authType ?? 'none',
    credentialsSet: domain.credentialsSet ?? false,
    downAboveMs: domain.downAboveMs === undefined ? '' : String(domain.downAboveMs),
  }
}

function serviceModel(service: ServiceItem): Model {
  const config = service.protocolConfig
  const text = (value: number | string | undefined) => (value === undefined ? '' : String(value))
  return {
    ...EMPTY,
    ...httpModel(config),
    name: service.name,
    protocol: service.protocol,
    host: config.host,
    port: text(config.port),
    path: config.path ?? '',
    checkInterval: String(service.checkInterval),
    timeout: String(service.timeout),
    enabled: service.enabled,
    locations: service.locations ?? [],
    failureThreshold: text(service.failureThreshold),
    quorumPercent: text(service.quorumPercent),
    isApi: config.isApi ?? false,
    authType: config.authType ?? 'none',
    credentialsSet: config.credentialsSet ?? false,
    recordType: config.recordType ?? 'A',
    expected: config.expected ?? '',
    server: config.server ?? '',
    warnDays: text(config.warnDays),
    count: text(config.count),
    options: optionValuesOf(config),
    secretsSet: config.secretsSet ?? false,
    // The form has one degraded threshold: the service's, or the HTTP option of one saved before.
    degradedAboveMs: text(service.degradedAboveMs ?? config.degradedAboveMs),
    downAboveMs: text(service.downAboveMs),
  }
}

/** A whole number from a field, or undefined when it is empty; a word that is not a number is an error. */
function integer(value: string, label: string): number | undefined {
  if (value.trim() === '') return undefined
  const number = Number(value)
  if (!Number.isInteger(number)) throw new Error(`${label} must be a whole number`)
  return number
}

function expectedStatusOf(text: string): Array<number | string> | undefined {
  const parts = text.split(/[\s,]+/).filter(Boolean)
  if (parts.length === 0) return undefined
  return parts.map((part) => {
    if (/^\d{3}$/.test(part)) return Number(part)
    if (/^\d{3}-\d{3}$/.test(part)) return part
    throw new Error(`Expected status codes: "${part}" is neither a code such as 200 nor a range such as 200-299`)
  })
}

/**
 * The HTTP options as the API takes them. On an update, an emptied option is sent as null so the
 * stored one is removed; on a create it is left out.
 */
function httpBody(model: Model, update: boolean): Record<string, unknown> {
  const absent = update ? null : undefined
  const headers = Object.fromEntries(
    model.headers.filter((header) => header.name.trim()).map((header) => [header.name.trim(), header.value]),
  )
  let equals: unknown
  if (model.jsonEquals.trim()) {
    try {
      equals = JSON.parse(model.jsonEquals)
    } catch {
      equals = model.jsonEquals
    }
  }
  const body: Record<string, unknown> = {
    method: model.method,
    headers: Object.keys(headers).length ? headers : absent,
    body: model.body ? model.body : absent,
    expectedStatus: expectedStatusOf(model.expectedStatus) ?? absent,
    keyword: model.keyword ? model.keyword : absent,
    keywordAbsent: model.keyword ? model.keywordAbsent : absent,
    regex: model.regex ? model.regex : absent,
    jsonPath: model.jsonPath ? { path: model.jsonPath, ...(equals !== undefined ? { equals } : {}) } : absent,
    followRedirects: model.followRedirects,
    ignoreTlsErrors: model.ignoreTlsErrors,
    conditions: conditionsOf(model.conditions) ?? absent,
  }
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined))
}

/** The conditions field, one per line; blank lines are skipped. */
function conditionsOf(text: string): string[] | undefined {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
  return lines.length ? lines : undefined
}

/** The part of an API error about `conditions`, to show beside that field. */
function conditionsErrorOf(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined
  return /(?:^|[\s;,.])conditions(?:\.\d+)?: ([^;]*)/.exec(error.message)?.[1]
}

function credentialsOf(model: Model): Record<string, string> | undefined {
  if (model.authType === 'basic' && model.username) return { username: model.username, password: model.password }
  if (model.authType === 'bearer' && model.token) return { token: model.token }
  return undefined
}

/** `registry`: the protocol's description when it is one of the registry's. */
function requestBody(kind: Kind, model: Model, update: boolean, registry?: ProtocolInfo): Record<string, unknown> {
  const common: Record<string, unknown> = {
    name: model.name.trim() || undefined,
    checkInterval: integer(model.checkInterval, 'Check interval'),
    timeout: integer(model.timeout, 'Timeout'),
    enabled: model.enabled,
    locations: model.locations.length ? model.locations : undefined,
    failureThreshold: integer(model.failureThreshold, 'Failures before down'),
    quorumPercent: integer(model.quorumPercent, 'Quorum'),
    degradedAboveMs: integer(model.degradedAboveMs, 'Degraded above') ?? (update ? null : undefined),
    downAboveMs: integer(model.downAboveMs, 'Down above') ?? (update ? null : undefined),
  }
  if (kind === 'domains') {
    return {
      ...common,
      url: model.url.trim(),
      isApi: model.isApi,
      authType: model.authType,
      credentials: credentialsOf(model),
      tags: model.tags
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean),
      ...httpBody(model, update),
    }
  }
  const config: Record<string, unknown> = { host: model.host.trim() }
  const port = integer(model.port, 'Port')
  if (isHttp(kind, model.protocol)) {
    // The whole configuration is replaced on an update: absent options are simply not there.
    Object.assign(config, httpBody(model, false), {
      port,
      path: model.path || undefined,
      isApi: model.isApi,
      authType: model.authType,
      credentials: credentialsOf(model),
    })
  } else if (model.protocol === 'tcp') config.port = port
  else if (model.protocol === 'tls') Object.assign(config, { port, warnDays: integer(model.warnDays, 'Warn days') })
  else if (model.protocol === 'dns') {
    Object.assign(config, {
      recordType: model.recordType,
      expected: model.expected || undefined,
      server: model.server || undefined,
    })
  } else if (model.protocol === 'icmp') config.count = integer(model.count, 'Echo requests')
  else if (registry) Object.assign(config, { port }, optionConfigOf(registry, model.options))
  return {
    ...common,
    protocol: model.protocol,
    protocolConfig: Object.fromEntries(Object.entries(config).filter(([, value]) => value !== undefined)),
  }
}

/** What `POST /api/monitors/test` answers: the probe's result, as it reported it. */
interface TestedCheck {
  location: string
  status: string
  responseTimeMs: number
  statusCode?: number
  error?: string
  phases?: Phases
}

/**
 * Where a test runs: the first location the monitor names, else the first probe online. Null
 * when no probe has ever reported, which the test then says in words.
 */
function testLocation(chosen: string[], known: Location[] | undefined): string | null {
  const named = chosen.find((code) => code !== '*')
  if (named) return named
  return (known?.find((place) => place.online) ?? known?.[0])?.code ?? null
}

function TestResult({ result }: { result: TestedCheck }) {
  const phases = PHASES.filter((phase) => result.phases?.[phase.key] !== undefined).map((phase) => ({
    ...phase,
    value: result.phases?.[phase.key] ?? 0,
  }))
  const total = phases.reduce((sum, phase) => sum + phase.value, 0) || 1
  return (
    <div class="card test-result">
      <p>
        <StateDot state={result.status} /> from {result.location} in {formatMs(result.responseTimeMs)}
        {result.statusCode ? ` · HTTP ${result.statusCode}` : ''}
      </p>
      {result.error ? <p class="test-reason">{result.error}</p> : null}
      {phases.length ? (
        <>
          <div class="phases" role="img" aria-label="Time per phase">
            {phases.map((phase) => (
              <span key={phase.key} style={{ width: `${(phase.value / total) * 100}%`, background: phase.color }} />
            ))}
          </div>
          <div class="legend">
            {phases.map((phase) => (
              <span key={phase.key}>
                <i style={{ background: phase.color }} />
                {phase.label} {formatMs(phase.value)}
              </span>
            ))}
          </div>
        </>
      ) : null}
    </div>
  )
}

export default function MonitorForm({ id }: { id?: string }) {
  const location = useLocation()
  const { current } = useOrg()
  const managed = useManagedByCode(current.id)
  const kind: Kind = location.path.startsWith('/services') ? 'services' : 'domains'
  const noun = kind === 'domains' ? 'domain' : 'service'
  const editing = id !== undefined
  const [model, setModel] = useState<Model | undefined>(editing ? undefined : EMPTY)
  const existing = useResource(async () => {
    if (!id) return undefined
    if (kind === 'domains') return domainModel((await api.get<Envelope<DomainDetail>>(`/api/domains/${id}`)).data)
    return serviceModel((await api.get<Envelope<ServiceItem>>(`/api/services/${id}`)).data)
  }, [current.id, id, kind])
  useEffect(() => {
    if (existing.data && !model) setModel(existing.data)
  }, [existing.data])
  const locations = useResource(
    () => api.get<Envelope<Location[]>>('/api/locations').then((body) => body.data),
    [current.id],
  )
  const test = useAction()
  const [tested, setTested] = useState<TestedCheck | undefined>(undefined)
  const [conditionsError, setConditionsError] = useState<string | undefined>(undefined)
  const protocols = useProtocols()

  if (existing.error) return <ErrorText error={existing.error} retry={existing.reload} />
  if (!model) return <Loading lines={12} label={`Loading the ${noun}…`} />
  const set = <K extends keyof Model>(key: K, value: Model[K]) => setModel({ ...model, [key]: value })
  const text = (key: keyof Model) => ({
    value: model[key] as string,
    onInput: (event: { currentTarget: { value: string } }) => set(key, event.currentTarget.value as never),
  })
  const http = isHttp(kind, model.protocol)
  const registry = protocols.data?.find((protocol) => protocol.kind === model.protocol && !protocol.builtIn)

  const runTest = () =>
    test.run(async () => {
      setTested(undefined)
      const where = testLocation(model.locations, locations.data)
      if (!where) throw new Error('No probe has reported yet: start one to test from')
      const body = requestBody(kind, model, false, registry)
      const answer = await noteConditionsError(() =>
        api.post<Envelope<TestedCheck>>('/api/monitors/test', {
          location: where,
          [kind === 'domains' ? 'domain' : 'service']: body,
        }),
      )
      setTested(answer.data)
    })

  /** Runs a request, keeping what the API said about the conditions for the field itself. */
  async function noteConditionsError<T>(request: () => Promise<T>): Promise<T> {
    setConditionsError(undefined)
    try {
      return await request()
    } catch (error) {
      setConditionsError(conditionsErrorOf(error))
      throw error
    }
  }

  const submit = async () => {
    const body = requestBody(kind, model, editing, registry)
    if (editing) {
      await noteConditionsError(() => api.put(`/api/${kind}/${id}`, body))
      location.route(`/${kind}/${id}`)
    } else {
      const created = await noteConditionsError(() => api.post<Envelope<{ id: string }>>(`/api/${kind}`, body))
      location.route(`/${kind}/${created.data.id}`)
    }
  }

  return (
    <section aria-labelledby="form-title">
      <p>
        <a href={editing ? `/${kind}/${id}` : `/${kind}`}>
          ← {editing ? 'Back' : kind === 'domains' ? 'Domains' : 'Services'}
        </a>
      </p>
      <h1 id="form-title">{editing ? `Edit ${model.name || noun}` : `New ${noun}`}</h1>
      {id !== undefined && managed.has(id) && <ManagedWarning />}
      <Form
        onSubmit={submit}
        submitLabel={editing ? 'Save changes' : `Add ${noun}`}
        onCancel={() => location.route(editing ? `/${kind}/${id}` : `/${kind}`)}
        once
        actions={
          <button type="button" onClick={runTest} disabled={test.busy}>
            {test.busy ? 'Testing…' : 'Test'}
          </button>
        }
      >
        <fieldset>
          <legend>What to check</legend>
          {kind === 'domains' ? (
            <Field label="URL" hint="The address Guard requests, http:// or https://">
              {(fieldId, hint) => <input id={fieldId} aria-describedby={hint} type="url" required {...text('url')} />}
            </Field>
          ) : (
            <>
              <Field label="Protocol">
                {(fieldId) => (
                  <select
                    id={fieldId}
                    value={model.protocol}
                    onChange={(event) =>
                      setModel({ ...model, protocol: event.currentTarget.value as ServiceProtocol, options: {} })
                    }
                  >
                    {(protocols.data ?? BUILTIN_PROTOCOLS).map((protocol) => (
                      <option key={protocol.kind} value={protocol.kind}>
                        {protocol.label}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <div class="row">
                <Field label="Host" hint="A host name or IP address">
                  {(fieldId, hint) => <input id={fieldId} aria-describedby={hint} required {...text('host')} />}
                </Field>
                {['tcp', 'tls', 'http', 'https'].includes(model.protocol) || registry ? (
                  <Field label="Port" hint={registry?.defaultPort ? `Default ${registry.defaultPort}` : undefined}>
                    {(fieldId, hint) => (
                      <input id={fieldId} aria-describedby={hint} inputMode="numeric" {...text('port')} />
                    )}
                  </Field>
                ) : null}
                {http ? (
                  <Field label="Path" hint="Starts with /">
                    {(fieldId, hint) => <input id={fieldId} aria-describedby={hint} {...text('path')} />}
                  </Field>
                ) : null}
              </div>
              {model.protocol === 'dns' ? (
                <div class="row">
                  <Field label="Record type">
                    {(fieldId) => (
                      <select
                        id={fieldId}
                        value={model.recordType}
                        onChange={(event) => set('recordType', event.currentTarget.value)}
                      >
                        {RECORD_TYPES.map((type) => (
                          <option key={type}>{type}</option>
                        ))}
                      </select>
                    )}
                  </Field>
                  <Field label="Expected answer" hint="One answer must equal this">
                    {(fieldId, hint) => <input id={fieldId} aria-describedby={hint} {...text('expected')} />}
                  </Field>
                  <Field label="Resolver" hint="IP[:port]; default: the system's">
                    {(fieldId, hint) => <input id={fieldId} aria-describedby={hint} {...text('server')} />}
                  </Field>
                </div>
              ) : null}
              {model.protocol === 'tls' ? (
                <Field label="Warn days" hint="A certificate expiring within this many days is degraded (default 14)">
                  {(fieldId, hint) => (
                    <input id={fieldId} aria-describedby={hint} inputMode="numeric" {...text('warnDays')} />
                  )}
                </Field>
              ) : null}
              {registry ? (
                <ProtocolOptionFields
                  protocol={registry}
                  values={model.options}
                  onChange={(options) => set('options', options)}
                  secretsSet={editing && model.secretsSet}
                />
              ) : null}
              {model.protocol === 'icmp' ? (
                <Field label="Echo requests" hint="Per check, 1 to 10 (default 3)">
                  {(fieldId, hint) => (
                    <input id={fieldId} aria-describedby={hint} inputMode="numeric" {...text('count')} />
                  )}
                </Field>
              ) : null}
            </>
          )}
          <Field label="Name" hint={kind === 'domains' ? 'Default: the page title or the host' : undefined}>
            {(fieldId, hint) => (
              <input id={fieldId} aria-describedby={hint} required={kind === 'services'} {...text('name')} />
            )}
          </Field>
          {kind === 'domains' ? (
            <Field label="Tags" hint="Comma-separated">
              {(fieldId, hint) => <input id={fieldId} aria-describedby={hint} {...text('tags')} />}
            </Field>
          ) : null}
        </fieldset>

        <fieldset>
          <legend>Schedule and where from</legend>
          <div class="row">
            <Field label="Check interval (seconds)" hint="5 to 86400">
              {(fieldId, hint) => (
                <input id={fieldId} aria-describedby={hint} inputMode="numeric" required {...text('checkInterval')} />
              )}
            </Field>
            <Field label="Timeout (seconds)" hint="Below the interval; default from the interval">
              {(fieldId, hint) => (
                <input id={fieldId} aria-describedby={hint} inputMode="numeric" {...text('timeout')} />
              )}
            </Field>
          </div>
          <fieldset class="field plain">
            <legend>Locations</legend>
            <div class="checks">
              {[{ code: '*', online: true, configured: true }, ...(locations.data ?? [])].map((place) => (
                <label class="check" key={place.code}>
                  <input
                    type="checkbox"
                    checked={model.locations.includes(place.code)}
                    onChange={(event) =>
                      set(
                        'locations',
                        event.currentTarget.checked
                          ? [...model.locations, place.code]
                          : model.locations.filter((code) => code !== place.code),
                      )
                    }
                  />
                  {place.code === '*' ? 'Every probe' : `${place.code}${place.online ? '' : ' (offline)'}`}
                </label>
              ))}
            </div>
            <small class="hint">None ticked: the server's default locations.</small>
          </fieldset>
          <div class="row">
            <Field label="Failures before down" hint="Consecutive failed checks per location (default 2)">
              {(fieldId, hint) => (
                <input id={fieldId} aria-describedby={hint} inputMode="numeric" {...text('failureThreshold')} />
              )}
            </Field>
            <Field label="Quorum (%)" hint="Share of locations that must fail (default 50)">
              {(fieldId, hint) => (
                <input id={fieldId} aria-describedby={hint} inputMode="numeric" {...text('quorumPercent')} />
              )}
            </Field>
          </div>
          <label class="check">
            <input
              type="checkbox"
              checked={model.enabled}
              onChange={(event) => set('enabled', event.currentTarget.checked)}
            />
            Checks run (untick to pause)
          </label>
        </fieldset>

        {http ? (
          <fieldset>
            <legend>Request</legend>
            <div class="row">
              <Field label="Method">
                {(fieldId) => (
                  <select
                    id={fieldId}
                    value={model.method}
                    onChange={(event) => set('method', event.currentTarget.value)}
                  >
                    {METHODS.map((method) => (
                      <option key={method}>{method}</option>
                    ))}
                  </select>
                )}
              </Field>
              <Field label="Authentication">
                {(fieldId) => (
                  <select
                    id={fieldId}
                    value={model.authType}
                    onChange={(event) => set('authType', event.currentTarget.value as Model['authType'])}
                  >
                    <option value="none">None</option>
                    <option value="basic">Basic (user and password)</option>
                    <option value="bearer">Bearer token</option>
                  </select>
                )}
              </Field>
            </div>
            {model.authType === 'basic' ? (
              <div class="row">
                <Field label="User name" hint={model.credentialsSet ? 'Stored; leave empty to keep it' : undefined}>
                  {(fieldId, hint) => (
                    <input id={fieldId} aria-describedby={hint} autoComplete="off" {...text('username')} />
                  )}
                </Field>
                <Field label="Password">
                  {(fieldId) => (
                    <input id={fieldId} type="password" autoComplete="new-password" {...text('password')} />
                  )}
                </Field>
              </div>
            ) : null}
            {model.authType === 'bearer' ? (
              <Field
                label="Token"
                hint={model.credentialsSet ? 'Stored; leave empty to keep it' : 'Write-only: never shown again'}
              >
                {(fieldId, hint) => (
                  <input id={fieldId} aria-describedby={hint} type="password" autoComplete="off" {...text('token')} />
                )}
              </Field>
            ) : null}
            <fieldset class="field plain">
              <legend>Headers</legend>
              {model.headers.map((header, index) => (
                <div class="row" key={index}>
                  <input
                    aria-label="Header name"
                    placeholder="Name"
                    value={header.name}
                    onInput={(event) =>
                      set(
                        'headers',
                        model.headers.map((item, at) =>
                          at === index ? { ...item, name: event.currentTarget.value } : item,
                        ),
                      )
                    }
                  />
                  <input
                    aria-label="Header value"
                    placeholder="Value"
                    value={header.value}
                    onInput={(event) =>
                      set(
                        'headers',
                        model.headers.map((item, at) =>
                          at === index ? { ...item, value: event.currentTarget.value } : item,
                        ),
                      )
                    }
                  />
                  <button
                    type="button"
                    style={{ flex: '0 0 auto' }}
                    onClick={() =>
                      set(
                        'headers',
                        model.headers.filter((_, at) => at !== index),
                      )
                    }
                  >
                    Remove
                  </button>
                </div>
              ))}
              <div>
                <button type="button" onClick={() => set('headers', [...model.headers, { name: '', value: '' }])}>
                  Add a header
                </button>
              </div>
            </fieldset>
            {model.method !== 'GET' && model.method !== 'HEAD' ? (
              <Field label="Body">{(fieldId) => <textarea id={fieldId} {...text('body')} />}</Field>
            ) : null}
            <label class="check">
              <input
                type="checkbox"
                checked={model.followRedirects}
                onChange={(event) => set('followRedirects', event.currentTarget.checked)}
              />
              Follow redirects (up to 10)
            </label>
            <label class="check">
              <input
                type="checkbox"
                checked={model.ignoreTlsErrors}
                onChange={(event) => set('ignoreTlsErrors', event.currentTarget.checked)}
              />
              Accept an invalid or expired certificate
            </label>
            <label class="check">
              <input
                type="checkbox"
                checked={model.isApi}
                onChange={(event) => set('isApi', event.currentTarget.checked)}
              />
              API endpoint: the answer must be JSON
            </label>
          </fieldset>
        ) : null}

        {http ? (
          <fieldset>
            <legend>What counts as up</legend>
            <div class="row">
              <Field label="Expected status codes" hint="e.g. 200, 300-399 (default 200-399)">
                {(fieldId, hint) => <input id={fieldId} aria-describedby={hint} {...text('expectedStatus')} />}
              </Field>
            </div>
            <div class="row">
              <Field label="Keyword" hint="The body must contain this text">
                {(fieldId, hint) => <input id={fieldId} aria-describedby={hint} {...text('keyword')} />}
              </Field>
              <Field label="Regular expression" hint="The body must match it">
                {(fieldId, hint) => <input id={fieldId} aria-describedby={hint} {...text('regex')} />}
              </Field>
            </div>
            <label class="check">
              <input
                type="checkbox"
                checked={model.keywordAbsent}
                disabled={!model.keyword}
                onChange={(event) => set('keywordAbsent', event.currentTarget.checked)}
              />
              Fail when the keyword appears (instead of when it is missing)
            </label>
            <div class="row">
              <Field label="JSONPath" hint="e.g. $.status: the JSON body must have a value there">
                {(fieldId, hint) => <input id={fieldId} aria-describedby={hint} {...text('jsonPath')} />}
              </Field>
              <Field label="JSONPath equals" hint='Optional JSON value, e.g. "ok" or true'>
                {(fieldId, hint) => (
                  <input id={fieldId} aria-describedby={hint} disabled={!model.jsonPath} {...text('jsonEquals')} />
                )}
              </Field>
            </div>
            <Field
              label="Conditions"
              hint="One per line, all must hold, e.g. [STATUS] == 200, [BODY].data.id == 1, len([BODY].items) > 0, [CERTIFICATE_EXPIRATION] > 48h"
            >
              {(fieldId, hint) => (
                <>
                  <textarea
                    id={fieldId}
                    rows={4}
                    spellcheck={false}
                    aria-describedby={conditionsError ? `${fieldId}-error ${hint}` : hint}
                    aria-invalid={conditionsError ? true : undefined}
                    {...text('conditions')}
                  />
                  {conditionsError ? (
                    <small id={`${fieldId}-error`} class="error" role="alert">
                      {conditionsError}
                    </small>
                  ) : null}
                </>
              )}
            </Field>
          </fieldset>
        ) : null}
        <fieldset>
          <legend>Response time</legend>
          <div class="row">
            <Field label="Degraded above (ms)" hint="Slower answers are degraded, not up">
              {(fieldId, hint) => (
                <input id={fieldId} aria-describedby={hint} inputMode="numeric" {...text('degradedAboveMs')} />
              )}
            </Field>
            <Field label="Down above (ms)" hint="Slower answers are down; below the timeout">
              {(fieldId, hint) => (
                <input id={fieldId} aria-describedby={hint} inputMode="numeric" {...text('downAboveMs')} />
              )}
            </Field>
          </div>
        </fieldset>
        <div aria-live="polite">
          <ErrorText error={test.error} />
          {tested ? <TestResult result={tested} /> : null}
        </div>
      </Form>
    </section>
  )
}
