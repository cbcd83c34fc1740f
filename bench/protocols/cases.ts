import { type MonitorConfig, type MonitorTarget, probeCredentialsKey, sealTargetSecrets } from '@guard/shared'
import { z } from 'zod'

/** The kinds measured, in the order printed: the two references first. */
export const benchKinds = [
  'tcp',
  'http',
  'udp',
  'grpc',
  'websocket',
  'mqtt',
  'smtp',
  'imap',
  'pop3',
  'ssh',
  'postgres',
  'mysql',
  'redis',
  'mongodb',
] as const
export type BenchKind = (typeof benchKinds)[number]

/** Always measured: every other figure is read against them, and the memory figures run HTTP checks. */
const referenceKinds: readonly BenchKind[] = ['tcp', 'http']

/** BENCH_KINDS (a comma list, default all), always with the references. */
export function selectedKinds(list = process.env.BENCH_KINDS): BenchKind[] {
  if (!list) return [...benchKinds]
  const asked = z.array(z.enum(benchKinds)).parse(list.split(',').map((kind) => kind.trim()))
  return benchKinds.filter((kind) => referenceKinds.includes(kind) || asked.includes(kind))
}

const port = z.number().int().positive()
const withTls = z.object({ port, tlsPort: port })

/** What the servers process serves, per kind; it prints this as one JSON line. tcp connects to the HTTP server. */
export const servedTargets = z.object({
  http: withTls,
  udp: z.object({ port }).optional(),
  grpc: withTls.optional(),
  websocket: withTls.optional(),
  mqtt: withTls.optional(),
  smtp: z.object({ port, plainPort: port }).optional(),
  imap: withTls.optional(),
  pop3: withTls.optional(),
  ssh: z.object({ port, fingerprint: z.string() }).optional(),
  postgres: z.object({ port, user: z.string(), database: z.string() }).optional(),
  mysql: z.object({ port, user: z.string(), password: z.string(), database: z.string() }).optional(),
  redis: z.object({ port, tlsPort: port, password: z.string() }).optional(),
  mongodb: z.object({ port }).optional(),
})
export type ServedTargets = z.infer<typeof servedTargets>

/** The mail servers' one account. */
export const mailUser = { username: 'bench', password: 'bench-password' }

/** Secrets are sealed as the collector seals them, so each check pays for opening them like a real probe's. */
export const credentialsKey = probeCredentialsKey('bench-protocols-credentials-key-0123456789')

export interface BenchCase {
  name: string
  kind: BenchKind
  monitor: MonitorConfig
}

const host = '127.0.0.1'
const mailLogin = { username: mailUser.username, secrets: { password: mailUser.password } }

/** Each kind's variants: the plain check first, then its TLS and assertion variants that the fixtures serve. */
function targetsOf(kind: BenchKind, served: ServedTargets): Array<[string, MonitorTarget]> {
  const missing = () => new Error(`the servers process serves no ${kind} target`)
  switch (kind) {
    case 'tcp':
      return [['tcp (reference)', { kind, host, port: served.http.port }]]
    case 'http':
      return [
        ['http', { kind, url: `http://${host}:${served.http.port}/`, method: 'GET' }],
        ['https', { kind, url: `https://${host}:${served.http.tlsPort}/`, method: 'GET', ignoreTlsErrors: true }],
      ]
    case 'udp': {
      const udp = served.udp ?? throwError(missing())
      return [['udp echo', { kind, host, port: udp.port, payload: 'ping', replyContains: 'ping' }]]
    }
    case 'grpc': {
      const grpc = served.grpc ?? throwError(missing())
      return [
        ['grpc', { kind, host, port: grpc.port }],
        ['grpc tls', { kind, host, port: grpc.tlsPort, tls: true, ignoreTlsErrors: true }],
      ]
    }
    case 'websocket': {
      const ws = served.websocket ?? throwError(missing())
      return [
        ['websocket', { kind, host, port: ws.port }],
        ['websocket send+reply', { kind, host, port: ws.port, send: 'ping', replyContains: 'ping' }],
        ['websocket tls', { kind, host, port: ws.tlsPort, tls: true, ignoreTlsErrors: true }],
      ]
    }
    case 'mqtt': {
      const mqtt = served.mqtt ?? throwError(missing())
      return [
        ['mqtt', { kind, host, port: mqtt.port }],
        ['mqtt retained message', { kind, host, port: mqtt.port, topic: 'bench/state', messageContains: 'ok' }],
        ['mqtt tls', { kind, host, port: mqtt.tlsPort, tls: true, ignoreTlsErrors: true }],
      ]
    }
    case 'smtp': {
      const smtp = served.smtp ?? throwError(missing())
      return [
        ['smtp plain', { kind, host, port: smtp.plainPort, tls: 'none' }],
        ['smtp starttls', { kind, host, port: smtp.port, ignoreTlsErrors: true }],
        ['smtp starttls + auth', { kind, host, port: smtp.port, ignoreTlsErrors: true, ...mailLogin }],
      ]
    }
    case 'imap': {
      const imap = served.imap ?? throwError(missing())
      return [
        [
          'imap starttls + login',
          { kind, host, port: imap.port, tls: 'starttls', ignoreTlsErrors: true, ...mailLogin },
        ],
        [
          'imap implicit tls + login',
          { kind, host, port: imap.tlsPort, tls: 'implicit', ignoreTlsErrors: true, ...mailLogin },
        ],
      ]
    }
    case 'pop3': {
      const pop3 = served.pop3 ?? throwError(missing())
      return [
        [
          'pop3 stls + user/pass',
          { kind, host, port: pop3.port, tls: 'starttls', ignoreTlsErrors: true, ...mailLogin },
        ],
        [
          'pop3 implicit tls + user/pass',
          { kind, host, port: pop3.tlsPort, tls: 'implicit', ignoreTlsErrors: true, ...mailLogin },
        ],
      ]
    }
    case 'ssh': {
      const ssh = served.ssh ?? throwError(missing())
      return [
        ['ssh identification', { kind, host, port: ssh.port }],
        ['ssh pinned host key (key exchange)', { kind, host, port: ssh.port, hostKeySha256: ssh.fingerprint }],
      ]
    }
    case 'postgres': {
      const pg = served.postgres ?? throwError(missing())
      return [['postgres SELECT 1', { kind, host, port: pg.port, username: pg.user, database: pg.database }]]
    }
    case 'mysql': {
      const mysql = served.mysql ?? throwError(missing())
      const target = { kind, host, port: mysql.port, username: mysql.user, database: mysql.database }
      return [['mysql SELECT 1', { ...target, secrets: { password: mysql.password } }]]
    }
    case 'redis': {
      const redis = served.redis ?? throwError(missing())
      const secrets = { password: redis.password }
      return [
        ['redis PING', { kind, host, port: redis.port, secrets }],
        ['redis tls', { kind, host, port: redis.tlsPort, tls: true, ignoreTlsErrors: true, secrets }],
      ]
    }
    case 'mongodb': {
      const mongo = served.mongodb ?? throwError(missing())
      return [['mongodb ping (wire fake)', { kind, host, port: mongo.port }]]
    }
  }
}

function throwError(error: Error): never {
  throw error
}

/** Every variant of the given kinds as a monitor the probe's runCheck takes, secrets sealed. */
export function benchCases(kinds: readonly BenchKind[], served: ServedTargets): BenchCase[] {
  return kinds.flatMap((kind) =>
    targetsOf(kind, served).map(([name, target], index) => ({
      name,
      kind,
      monitor: {
        v: 1,
        id: `bench-${kind}-${index}`,
        organizationId: 'bench',
        target: sealTargetSecrets(target, credentialsKey),
        intervalSeconds: 60,
        timeoutSeconds: 5,
        locations: ['*'],
        enabled: true,
      },
    })),
  )
}
