/**
 * What a multi-host DATABASE_URL asks for, in libpq's form
 * `postgres://user:pass@h1:5432,h2:5432/db?target_session_attrs=read-write`. The `pg` driver reads
 * one host only, so the URL is split into one single-host URL per host, tried in order.
 */
export interface PostgresTargets {
  /** One `pg` connection string per host, in the order given, without `target_session_attrs`. */
  urls: string[]
  /** `read-write` (and libpq's `primary`): only a server that accepts writes; `any`: the first that answers. */
  wants: 'read-write' | 'any'
}

const SESSION_ATTRS: Record<string, PostgresTargets['wants']> = {
  any: 'any',
  'read-write': 'read-write',
  primary: 'read-write',
}

const SHAPE = /^(postgres(?:ql)?:\/\/)(?:([^@/?#]*)@)?([^/?#]*)(.*)$/

/** Splits `url` into its hosts; throws with the reason when it is not a postgres:// URL this store can use. */
export function parsePostgresTargets(url: string): PostgresTargets {
  const match = SHAPE.exec(url)
  if (!match) throw new Error('must be a postgres:// URL')
  const [, scheme, userinfo, hostList = '', rest = ''] = match
  const [path = '', query] = rest.split(/\?(.*)/s, 2)
  const params = new URLSearchParams(query ?? '')
  const attrs = params.get('target_session_attrs') ?? 'any'
  const wants = SESSION_ATTRS[attrs]
  if (!wants) throw new Error(`target_session_attrs=${attrs} is not supported (any, read-write or primary)`)
  params.delete('target_session_attrs')
  const search = params.size > 0 ? `?${params}` : ''
  const hosts = hostList.split(',')
  if (hosts.some((host) => host === '') && hosts.length > 1) throw new Error('has an empty host in its host list')
  const urls = hosts.map((host) => {
    const single = `${scheme}${userinfo === undefined ? '' : `${userinfo}@`}${host}${path}${search}`
    // Each host's URL must stand on its own, as `pg` parses it.
    if (!URL.canParse(single)) throw new Error('must be a postgres:// URL')
    return single
  })
  return { urls, wants }
}

/** The zod refinement's test: true when `parsePostgresTargets` accepts `url`. */
export function isPostgresUrl(url: string): boolean {
  try {
    parsePostgresTargets(url)
    return true
  } catch {
    return false
  }
}
