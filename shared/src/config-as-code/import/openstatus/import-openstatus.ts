import { readFile } from 'node:fs/promises'
import { parse } from 'yaml'
import { parseDuration } from '../../../conditions/duration.ts'
import { FORBIDDEN_HEADERS } from '../../../contracts/http-target.ts'
import { idAllocator } from '../document-ids.ts'
import { assembleDocument, type DocumentEntry, type ImportResult, type UnmappedItem } from '../import-result.ts'
import { type SecretCollector, secretCollector } from '../secret-placeholders.ts'
import { mapAssertions } from './map-assertions.ts'
import { type OpenstatusMonitor, openstatusMonitor } from './openstatus-schema.ts'
import { locationOf, type RegionOverrides } from './region-table.ts'

export class OpenstatusConfigError extends Error {
  override name = 'OpenstatusConfigError'
}

export interface ImportOpenstatusOptions {
  /** Regions mapped otherwise than by DEFAULT_REGIONS (`-` leaves a region out). */
  regions?: RegionOverrides
}

const GUARD_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']
const KNOWN_KEYS = [
  'name',
  'description',
  'kind',
  'active',
  'public',
  'frequency',
  'regions',
  'retry',
  'timeout',
  'degradedAfter',
  'request',
  'assertions',
  'openTelemetry',
]
const SECRET_HEADER = /token|key|secret|password|cookie/i

/** `${API_TOKEN}` in the file (the CLI's reference writes secrets so) → a reference Guard resolves. */
const envPlaceholders = (value: string) =>
  value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => `\${env:${name}}`)

interface Context {
  source: string
  unmapped: UnmappedItem[]
  secrets: SecretCollector
  regions: RegionOverrides
}

/** The monitors of the file: a map of id → monitor, as the CLI writes it, or a `monitors:` list. */
function monitorsOf(parsed: unknown, source: string): Array<{ key: string; item: string; raw: unknown }> {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new OpenstatusConfigError(`${source}: expected a mapping of monitor ids to monitors`)
  }
  const top = parsed as Record<string, unknown>
  if (Array.isArray(top.monitors)) {
    return top.monitors.map((raw, index) => ({
      key: String((raw as { name?: unknown } | null)?.name ?? `monitor-${index + 1}`),
      item: `monitors[${index}]`,
      raw,
    }))
  }
  return Object.entries(top).map(([key, raw]) => ({ key, item: JSON.stringify(key), raw }))
}

function locations(monitor: OpenstatusMonitor, item: string, context: Context): string[] {
  const found: string[] = []
  for (const region of monitor.regions) {
    const location = locationOf(region, context.regions)
    if (location === undefined) {
      context.unmapped.push({
        source: context.source,
        item: `${item}.regions ${region}`,
        reason: `no location for region ${region}; map it with --regions ${region}=<location>`,
      })
    } else if (location !== null && !found.includes(location)) found.push(location)
  }
  return found
}

function httpFields(monitor: OpenstatusMonitor, id: string, item: string, context: Context) {
  const { request } = monitor
  const fields: Record<string, unknown> = { url: envPlaceholders(request.url ?? '') }
  context.secrets.reads(fields.url as string, context.source, `${item}.request.url`)
  const method = (request.method ?? 'GET').toUpperCase()
  if (!GUARD_METHODS.includes(method)) {
    context.unmapped.push({
      source: context.source,
      item: `${item}.request.method`,
      reason: `Guard's HTTP checks do not send ${method}; GET is used`,
    })
  } else if (method !== 'GET') fields.method = method
  const headers: Record<string, string> = {}
  for (const [name, raw] of Object.entries(request.headers ?? {})) {
    const value = envPlaceholders(raw)
    const at = { source: context.source, item: `${item}.request.headers.${name}` }
    if (FORBIDDEN_HEADERS.includes(name.toLowerCase())) {
      context.unmapped.push({ ...at, reason: 'the probe sets this header itself (Host follows the URL)' })
      continue
    }
    const bearer = /^Bearer\s+(.+)$/i.exec(value)
    if (name.toLowerCase() === 'authorization' && bearer) {
      fields.authType = 'bearer'
      fields.credentials = { token: context.secrets.secret(bearer[1]!, { kind: 'domain', id, field: 'token', ...at }) }
    } else if (name.toLowerCase() === 'authorization' || SECRET_HEADER.test(name)) {
      headers[name] = context.secrets.secret(value, { kind: 'domain', id, field: `header_${name}`, ...at })
    } else {
      headers[name] = value
      context.secrets.reads(value, at.source, at.item)
    }
  }
  if (Object.keys(headers).length > 0) fields.headers = headers
  if (request.body !== undefined) {
    if (method === 'GET' || method === 'HEAD') {
      context.unmapped.push({
        source: context.source,
        item: `${item}.request.body`,
        reason: `Guard sends no body with ${method}`,
      })
    } else fields.body = envPlaceholders(request.body)
  }
  if (request.followRedirects === false) fields.followRedirects = false
  const assertions = mapAssertions(monitor.assertions)
  if (assertions.keyword !== undefined) fields.keyword = assertions.keyword
  if (assertions.keywordAbsent) fields.keywordAbsent = true
  if (assertions.conditions.length > 0) fields.conditions = assertions.conditions
  for (const { index, reason } of assertions.unmapped) {
    context.unmapped.push({ source: context.source, item: `${item}.assertions[${index}]`, reason })
  }
  return fields
}

/** frequency, timeout and degradedAfter as Guard's checkInterval (s), timeout (s) and degradedAboveMs. */
function timing(monitor: OpenstatusMonitor, item: string, context: Context) {
  const fields: Record<string, number> = {}
  const frequencyMs = parseDuration(monitor.frequency)
  if (frequencyMs === undefined) {
    context.unmapped.push({
      source: context.source,
      item: `${item}.frequency`,
      reason: `${monitor.frequency} is not a duration; Guard's default (60 s) applies`,
    })
  } else fields.checkInterval = Math.min(Math.max(Math.round(frequencyMs / 1000), 5), 86_400)
  const interval = fields.checkInterval ?? 60
  if (monitor.timeout !== undefined) {
    const timeout = Math.min(Math.ceil(monitor.timeout / 1000), 300)
    if (timeout < interval) fields.timeout = timeout
    else {
      context.unmapped.push({
        source: context.source,
        item: `${item}.timeout`,
        reason: `Guard's timeout is below the interval (${interval} s); ${monitor.timeout} ms is not, so Guard's default applies`,
      })
    }
  }
  if (monitor.degradedAfter !== undefined) {
    const timeoutMs = (fields.timeout ?? Math.min(interval - 1, 30)) * 1000
    if (monitor.degradedAfter < timeoutMs) fields.degradedAboveMs = monitor.degradedAfter
    else {
      context.unmapped.push({
        source: context.source,
        item: `${item}.degradedAfter`,
        reason: `Guard's degraded threshold is below the timeout (${timeoutMs} ms); ${monitor.degradedAfter} ms is not`,
      })
    }
  }
  return fields
}

function mapMonitor(
  entry: { key: string; item: string; raw: unknown },
  allocate: (...candidates: string[]) => string,
  context: Context,
) {
  const parsed = openstatusMonitor.safeParse(entry.raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    context.unmapped.push({
      source: context.source,
      item: entry.item,
      reason: `not a monitor: ${issue?.path.join('.')} ${issue?.message}`,
    })
    return undefined
  }
  const monitor = parsed.data
  const { item } = entry
  if (monitor.kind !== 'http' && monitor.kind !== 'tcp') {
    context.unmapped.push({
      source: context.source,
      item,
      reason: `Guard imports http and tcp monitors, not ${monitor.kind}`,
    })
    return undefined
  }
  if (monitor.kind === 'http' && !monitor.request.url) {
    context.unmapped.push({ source: context.source, item, reason: 'an http monitor needs request.url' })
    return undefined
  }
  if (monitor.kind === 'tcp' && (!monitor.request.host || monitor.request.port === undefined)) {
    context.unmapped.push({ source: context.source, item, reason: 'a tcp monitor needs request.host and request.port' })
    return undefined
  }
  const id = allocate(entry.key, monitor.name ?? entry.key)
  const specific =
    monitor.kind === 'http'
      ? httpFields(monitor, id, item, context)
      : { protocol: 'tcp', protocolConfig: { host: monitor.request.host, port: monitor.request.port } }
  if (monitor.kind === 'tcp' && monitor.assertions.length > 0) {
    context.unmapped.push({
      source: context.source,
      item: `${item}.assertions`,
      reason: "Guard's tcp check is up when the port accepts a connection; it has no assertions",
    })
  }
  const { degradedAboveMs, ...times } = timing(monitor, item, context)
  const where = locations(monitor, item, context)
  const document: DocumentEntry = {
    id,
    name: monitor.name ?? entry.key,
    ...specific,
    ...times,
    ...(degradedAboveMs === undefined ? {} : { degradedAboveMs }),
    ...(monitor.active === false ? { enabled: false } : {}),
    ...(where.length > 0 ? { locations: where } : {}),
    ...(monitor.retry === undefined || monitor.retry === 0
      ? {}
      : { failureThreshold: Math.min(monitor.retry + 1, 100) }),
  }
  const notes: Array<[string, string, boolean]> = [
    ['description', 'Guard monitors have no description', monitor.description !== undefined],
    ['public', "a public monitor: add it to a status page's components", monitor.public === true],
    ['openTelemetry', 'Guard does not export check traces to OpenTelemetry', monitor.openTelemetry !== undefined],
  ]
  for (const [key, reason, present] of notes) {
    if (present) context.unmapped.push({ source: context.source, item: `${item}.${key}`, reason })
  }
  for (const key of Object.keys(monitor)) {
    if (!KNOWN_KEYS.includes(key))
      context.unmapped.push({ source: context.source, item: `${item}.${key}`, reason: 'not an option Guard has' })
  }
  return { kind: monitor.kind === 'http' ? ('domain' as const) : ('service' as const), document }
}

/**
 * `openstatus.yaml` (the OpenStatus CLI's monitors file) as a guard.yaml document for review: http
 * monitors become domains, tcp monitors services, regions locations through the region table, and
 * assertions conditions; what has no place is listed.
 */
export async function importOpenstatus(path: string, options: ImportOpenstatusOptions = {}): Promise<ImportResult> {
  let parsed: unknown
  try {
    parsed = parse(await readFile(path, 'utf8'))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code) throw error
    throw new OpenstatusConfigError(`${path}: ${(error as Error).message}`)
  }
  const context: Context = { source: path, unmapped: [], secrets: secretCollector(), regions: options.regions ?? {} }
  const allocate = idAllocator()
  const domains: DocumentEntry[] = []
  const services: DocumentEntry[] = []
  for (const entry of monitorsOf(parsed ?? {}, path)) {
    const mapped = mapMonitor(entry, allocate, context)
    if (mapped?.kind === 'domain') domains.push(mapped.document)
    if (mapped?.kind === 'service') services.push(mapped.document)
  }
  return {
    document: assembleDocument({ domains, services }),
    unmapped: context.unmapped,
    secrets: context.secrets.references,
  }
}
