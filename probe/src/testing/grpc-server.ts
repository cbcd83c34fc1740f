import type { ServingStatus } from 'grpc-health-check'
import type { SelfSignedPems } from './certificate.ts'

export interface GrpcHealthFixture {
  port: number
  /** Sets the status the health service answers for a service name ('' = the whole server). */
  setStatus(service: string, status: ServingStatus): void
  /** The metadata of every call received, keys lowercase as on the wire. */
  received: Array<Record<string, string>>
  close(): Promise<void>
}

/**
 * A gRPC server on 127.0.0.1 with grpc-health-check's standard health service, plaintext or
 * with the given certificate; the whole server starts SERVING.
 */
export async function startGrpcHealthServer(certificate?: SelfSignedPems): Promise<GrpcHealthFixture> {
  const grpc = await import('@grpc/grpc-js')
  const { HealthImplementation } = await import('grpc-health-check')
  const received: Array<Record<string, string>> = []
  const recordMetadata: import('@grpc/grpc-js').ServerInterceptor = (_method, call) =>
    new grpc.ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onReceiveMetadata: (metadata, pass) => {
            const entries = Object.entries(metadata.getMap()).map(([key, value]) => [key, String(value)])
            received.push(Object.fromEntries(entries))
            pass(metadata)
          },
        }),
    })
  const server = new grpc.Server({ interceptors: [recordMetadata] })
  const health = new HealthImplementation({ '': 'SERVING' })
  health.addToServer(server)
  const credentials = certificate
    ? grpc.ServerCredentials.createSsl(null, [
        { private_key: Buffer.from(certificate.key), cert_chain: Buffer.from(certificate.cert) },
      ])
    : grpc.ServerCredentials.createInsecure()
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', credentials, (error, bound) => (error ? reject(error) : resolve(bound))),
  )
  return {
    port,
    setStatus: (service, status) => health.setStatus(service, status),
    received,
    close: async () => server.forceShutdown(),
  }
}
