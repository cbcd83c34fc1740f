import { createServer as createHttpServer, type RequestListener } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { startMariaDb, startPostgres, startRedis } from '@guard/shared/testing'
import { type SelfSignedPems, selfSignedCertificate } from '../../probe/src/testing/certificate.ts'
import { closeServer, listenLocal } from '../../probe/src/testing/fixtures.ts'
import { startGrpcHealthServer } from '../../probe/src/testing/grpc-server.ts'
import { startImapServer, startPop3Server, startSmtpServer } from '../../probe/src/testing/mail-servers.ts'
import { startMongoWire } from '../../probe/src/testing/mongo-wire.ts'
import { startMqttBroker } from '../../probe/src/testing/mqtt-broker.ts'
import { startSshServer } from '../../probe/src/testing/ssh-server.ts'
import { startUdpServer } from '../../probe/src/testing/udp-server.ts'
import { startWebSocketServer } from '../../probe/src/testing/websocket-server.ts'
import { type BenchKind, mailUser, type ServedTargets, selectedKinds } from './cases.ts'

/**
 * The protocol benchmark's targets, in a process of their own so their CPU time is not charged to
 * the checks measured (PostgreSQL, MariaDB and Redis are processes of their own anyway). Starts the
 * servers of the kinds in BENCH_KINDS, prints what it serves (ServedTargets) as one JSON line, and
 * stops them all when stdin ends.
 */
const kinds = new Set<BenchKind>(selectedKinds())
const certificate = await selfSignedCertificate('bench-protocols')
const stops: Array<() => Promise<void>> = []
/** What the fixtures record for their tests; thousands of checks need none of it kept. */
const logs: unknown[][] = []

async function startWebServers(pems: SelfSignedPems) {
  const answer: RequestListener = (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' })
    response.end('<html><head><title>bench</title></head><body>ok</body></html>')
  }
  const servers = [createHttpServer(answer), createHttpsServer(pems, answer)]
  // Every check opens a fresh connection, as the probe does; keep-alive would only hold sockets open.
  for (const server of servers) server.keepAliveTimeout = 0
  const [port, tlsPort] = await Promise.all(servers.map((server) => listenLocal(server)))
  stops.push(async () => {
    await Promise.all(servers.map(closeServer))
  })
  return { port: port!, tlsPort: tlsPort! }
}

/** Starts the servers of one kind; undefined when the kind is not asked for. */
async function serve<T>(kind: BenchKind, start: () => Promise<T>): Promise<T | undefined> {
  return kinds.has(kind) ? start() : undefined
}

const users = { [mailUser.username]: mailUser.password }
const served: ServedTargets = {
  http: await startWebServers(certificate),
  udp: await serve('udp', async () => {
    const udp = await startUdpServer()
    logs.push(udp.received)
    stops.push(udp.close)
    return { port: udp.port }
  }),
  grpc: await serve('grpc', async () => {
    const [plain, tls] = [await startGrpcHealthServer(), await startGrpcHealthServer(certificate)]
    logs.push(plain.received, tls.received)
    stops.push(plain.close, tls.close)
    return { port: plain.port, tlsPort: tls.port }
  }),
  websocket: await serve('websocket', async () => {
    const [plain, tls] = [await startWebSocketServer(), await startWebSocketServer({ certificate })]
    logs.push(plain.handshakes, tls.handshakes)
    stops.push(plain.close, tls.close)
    return { port: plain.port, tlsPort: tls.port }
  }),
  mqtt: await serve('mqtt', async () => {
    const [plain, tls] = [await startMqttBroker(), await startMqttBroker({ certificate })]
    for (const broker of [plain, tls]) await broker.publish('bench/state', 'status=ok', true)
    logs.push(plain.connects, tls.connects)
    stops.push(plain.close, tls.close)
    return { port: plain.port, tlsPort: tls.port }
  }),
  smtp: await serve('smtp', async () => {
    const starttls = await startSmtpServer({ certificate, users })
    const plain = await startSmtpServer({ certificate, startTls: false })
    logs.push(starttls.authAttempts, plain.authAttempts)
    stops.push(starttls.close, plain.close)
    return { port: starttls.port, plainPort: plain.port }
  }),
  imap: await serve('imap', async () => {
    const starttls = await startImapServer({ certificate, users })
    const implicit = await startImapServer({ certificate, users, implicitTls: true })
    logs.push(starttls.commands, implicit.commands)
    stops.push(starttls.close, implicit.close)
    return { port: starttls.port, tlsPort: implicit.port }
  }),
  pop3: await serve('pop3', async () => {
    const starttls = await startPop3Server({ certificate, users })
    const implicit = await startPop3Server({ certificate, users, implicitTls: true })
    logs.push(starttls.commands, implicit.commands)
    stops.push(starttls.close, implicit.close)
    return { port: starttls.port, tlsPort: implicit.port }
  }),
  ssh: await serve('ssh', async () => {
    const ssh = await startSshServer()
    stops.push(ssh.close)
    return { port: ssh.port, fingerprint: ssh.fingerprint }
  }),
  postgres: await serve('postgres', async () => {
    const postgres = (await startPostgres()) ?? missingServer('PostgreSQL')
    stops.push(postgres.stop)
    const url = new URL(postgres.url)
    return { port: Number(url.port), user: url.username, database: url.pathname.slice(1) }
  }),
  mysql: await serve('mysql', async () => {
    const mariadb = (await startMariaDb()) ?? missingServer('MariaDB (mariadb-server)')
    stops.push(mariadb.stop)
    return { port: mariadb.port, user: mariadb.user, password: mariadb.password, database: mariadb.database }
  }),
  redis: await serve('redis', async () => {
    const redis = (await startRedis({ tls: certificate })) ?? missingServer('Redis (redis-server)')
    stops.push(redis.stop)
    return { port: redis.port, tlsPort: redis.tlsPort!, password: redis.password }
  }),
  mongodb: await serve('mongodb', async () => {
    const mongo = await startMongoWire()
    logs.push(mongo.sent)
    stops.push(mongo.close)
    return { port: mongo.port }
  }),
}

function missingServer(name: string): never {
  throw new Error(`${name} is not installed: install it, or leave its kind out of BENCH_KINDS`)
}

setInterval(() => {
  for (const log of logs) log.length = 0
}, 1000).unref()
process.stdout.write(`${JSON.stringify(served)}\n`)
process.stdin.resume()
process.stdin.on('end', async () => {
  await Promise.allSettled(stops.map((stop) => stop()))
  process.exit(0)
})
