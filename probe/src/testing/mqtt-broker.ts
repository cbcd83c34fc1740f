import { createServer as createTcpServer, type Server, type Socket } from 'node:net'
import { createServer as createTlsServer } from 'node:tls'
import type { SelfSignedPems } from './certificate.ts'
import { closeServer, listenLocal } from './fixtures.ts'

export interface MqttBrokerFixture {
  port: number
  /** Every accepted CONNECT: its client id and user name. */
  connects: Array<{ clientId: string; username: string | undefined }>
  /** Publishes on the broker (QoS 0), retained when asked so a later subscriber gets it at once. */
  publish(topic: string, payload: string, retain?: boolean): Promise<void>
  close(): Promise<void>
}

export interface MqttBrokerOptions {
  /** User name to password; when given, every CONNECT must carry one of them (return code 4 otherwise). */
  users?: Record<string, string>
  /** Topic filters a subscription is refused on (SUBACK 0x80). */
  deniedTopics?: string[]
  /** Serve mqtts with this certificate. */
  certificate?: SelfSignedPems
}

/** An aedes MQTT broker in this process, on 127.0.0.1. */
export async function startMqttBroker(options: MqttBrokerOptions = {}): Promise<MqttBrokerFixture> {
  const { Aedes } = await import('aedes')
  const connects: MqttBrokerFixture['connects'] = []
  const broker = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      const users = options.users
      if (users && (username === undefined || users[username] !== password?.toString('utf8'))) {
        done(Object.assign(new Error('bad user name or password'), { returnCode: 4 }), false)
        return
      }
      connects.push({ clientId: client.id, username })
      done(null, true)
    },
    authorizeSubscribe: (_client, subscription, done) =>
      done(null, options.deniedTopics?.includes(subscription.topic) ? null : subscription),
  })
  const sockets = new Set<Socket>()
  const accept = (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    broker.handle(socket)
  }
  const server: Server = options.certificate ? createTlsServer(options.certificate, accept) : createTcpServer(accept)
  const port = await listenLocal(server)
  return {
    port,
    connects,
    publish: (topic, payload, retain = false) =>
      new Promise((resolve, reject) =>
        broker.publish({ cmd: 'publish', topic, payload: Buffer.from(payload), qos: 0, retain, dup: false }, (error) =>
          error ? reject(error) : resolve(),
        ),
      ),
    async close() {
      for (const socket of sockets) socket.destroy()
      await closeServer(server)
      await new Promise<void>((resolve) => broker.close(() => resolve()))
    },
  }
}
