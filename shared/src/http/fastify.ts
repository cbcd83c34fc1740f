import type { IncomingMessage, ServerResponse } from 'node:http'
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController, type RawServerDefault } from 'fastify'
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod'
import type { Logger } from '../logger.ts'
import { registerControlCharacterGuard } from './control-characters.ts'
import { registerUnicodeGuard, routerError } from './unicode.ts'

export type GuardFastify = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>

/** A fastify instance whose routes declare zod schemas for requests and responses. */
export function createFastify(options: {
  logger: Logger
  bodyLimit?: number
  trustProxy?: boolean | string[]
  /** Rewrites a request's URL before routing (synchronously): the collector's custom status-page domains. */
  rewriteUrl?: (request: IncomingMessage) => string
}): GuardFastify {
  const app: GuardFastify = Fastify({
    // fastify's own logger type is the narrower interface; pino satisfies it.
    loggerInstance: options.logger as FastifyBaseLogger,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    trustProxy: options.trustProxy ?? false,
    ...(options.rewriteUrl ? { rewriteUrl: options.rewriteUrl } : {}),
    // Request lines at info level drown everything else; errors are still logged by the handlers.
    logController: new LogController({ disableRequestLogging: true }),
    // A path the router cannot decode is answered by the service's own error handler, in its shape.
    frameworkErrors: (error, request, reply) => app.errorHandler(routerError(error, request.url), request, reply),
  }).withTypeProvider<ZodTypeProvider>()
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  registerControlCharacterGuard(app)
  registerUnicodeGuard(app)
  return app
}

/** The address fastify listens on, as http://host:port. */
export function listeningUrl(app: FastifyInstance): string {
  const address = app.server.address()
  if (!address || typeof address === 'string') throw new Error('server is not listening on TCP')
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return `http://${host}:${address.port}`
}

/** A listening address as a client on this host opens it: a wildcard (0.0.0.0, ::) read as loopback. */
export const reachableUrl = (url: string): string =>
  url.replace(/^http:\/\/(0\.0\.0\.0|\[::\])(?=:)/, 'http://127.0.0.1')
