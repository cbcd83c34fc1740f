/**
 * The check protocols beyond the built-in five (http, tcp, dns, tls, icmp), one module each.
 * Adding one: its module here, its target in `protocolTargets`, its checker in the probe's
 * `checkers/index.ts`; the services API, OpenAPI, the console form, MCP and the CLI follow.
 */
import { grpcProtocol } from './grpc.ts'
import { imapProtocol } from './imap.ts'
import { mongodbProtocol } from './mongodb.ts'
import { mqttProtocol } from './mqtt.ts'
import { mysqlProtocol } from './mysql.ts'
import { pop3Protocol } from './pop3.ts'
import { postgresProtocol } from './postgres.ts'
import { redisProtocol } from './redis.ts'
import { smtpProtocol } from './smtp.ts'
import { sshProtocol } from './ssh.ts'
import { udpProtocol } from './udp.ts'
import { websocketProtocol } from './websocket.ts'

export * from './database-fields.ts'
export * from './define.ts'
export * from './grpc.ts'
export * from './imap.ts'
export * from './mail-fields.ts'
export * from './mongodb.ts'
export * from './mqtt.ts'
export * from './mysql.ts'
export * from './pop3.ts'
export * from './postgres.ts'
export * from './redis.ts'
export * from './smtp.ts'
export * from './ssh.ts'
export * from './udp.ts'
export * from './websocket.ts'

/** Their kinds, as check results name them. */
export const protocolKinds = [
  'udp',
  'smtp',
  'imap',
  'pop3',
  'ssh',
  'postgres',
  'mysql',
  'redis',
  'mongodb',
  'grpc',
  'websocket',
  'mqtt',
] as const

export const protocols = [
  udpProtocol,
  smtpProtocol,
  imapProtocol,
  pop3Protocol,
  sshProtocol,
  postgresProtocol,
  mysqlProtocol,
  redisProtocol,
  mongodbProtocol,
  grpcProtocol,
  websocketProtocol,
  mqttProtocol,
] as const

export const protocolTargets = [
  udpProtocol.target,
  smtpProtocol.target,
  imapProtocol.target,
  pop3Protocol.target,
  sshProtocol.target,
  postgresProtocol.target,
  mysqlProtocol.target,
  redisProtocol.target,
  mongodbProtocol.target,
  grpcProtocol.target,
  websocketProtocol.target,
  mqttProtocol.target,
] as const
