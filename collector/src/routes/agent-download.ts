import { readFile } from 'node:fs/promises'
import { GuardError } from '@guard/shared/errors'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { AGENT_BUNDLE, agentBundleIsFresh, bundleAgent, sha256 } from '../../../agent/build.mjs'
import type { CollectorContext } from '../context.ts'
import { errorSchema, rateLimitedSchema } from './common.ts'

const INSTALL_SCRIPT = new URL('../../../deploy/agent/install.sh', import.meta.url)

interface AgentArtifact {
  /** Text: esbuild writes ASCII, so these are the file's bytes as sent. */
  code: string
  sha256: string
}

let artifact: Promise<AgentArtifact> | undefined

/**
 * The agent file this collector hands out: dist/guard-agent.mjs when it was built from the sources
 * as they are (`npm run build:agent`, the image's build), else bundled in memory at the first
 * request, so `npm start` serves one without a build step and nothing is written. Kept for the
 * life of the process; a failed build is tried again at the next request.
 */
function agentArtifact(ctx: CollectorContext): Promise<AgentArtifact> {
  artifact ??= (async () => {
    const bytes = agentBundleIsFresh() ? await readFile(AGENT_BUNDLE) : (await bundleAgent()).code
    const code = bytes.toString('utf8')
    ctx.log.info({ bytes: code.length }, 'device agent ready for GET /agent/download')
    return { code, sha256: sha256(code) }
  })().catch((error: unknown) => {
    artifact = undefined
    ctx.log.error({ err: error }, 'the device agent could not be bundled for GET /agent/download')
    throw new GuardError('SERVICE_UNAVAILABLE', 'The device agent could not be built on this collector; see its log')
  })
  return artifact
}

/**
 * The address the install script downloads from: GUARD_COLLECTOR_PUBLIC_URL, else the one this
 * request came to. Left out (the script then asks for --collector) when it holds anything that
 * could end the shell string it is written into.
 */
function collectorAddress(ctx: CollectorContext, request: FastifyRequest): string {
  const url = ctx.env.GUARD_COLLECTOR_PUBLIC_URL ?? `${request.protocol}://${request.host}`
  return /^https?:\/\/[\w.:[\]%@-]+(\/[\w.~%/-]*)?$/.test(url) ? url.replace(/\/+$/, '') : '@@COLLECTOR_URL@@'
}

const shared = { produces: ['text/plain'], tags: ['agent'] }
const failures = { 429: rateLimitedSchema, 503: errorSchema }

/**
 * The device agent as one file and the script that installs it: public (they hold no secret; the
 * enrolment needs an API key), counted per client IP like the other public routes.
 */
export function agentDownloadRoutes(fastify: FastifyInstance, ctx: CollectorContext): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  app.get(
    '/agent/download',
    {
      schema: {
        ...shared,
        description:
          'The device agent as one JavaScript file for Node 20 or newer (`node guard-agent.mjs enroll|install|…`, no node_modules needed). `X-Checksum-SHA256` carries its SHA-256, also at /agent/download.sha256.',
        produces: ['text/javascript'],
        response: { 200: z.string(), 304: z.null(), ...failures },
      },
    },
    async (request, reply) => {
      const { code, sha256: checksum } = await agentArtifact(ctx)
      reply
        .header('Content-Type', 'text/javascript; charset=utf-8')
        .header('Content-Disposition', 'attachment; filename="guard-agent.mjs"')
        .header('X-Checksum-SHA256', checksum)
        .header('ETag', `"${checksum}"`)
        .header('Cache-Control', 'no-cache')
      if (request.headers['if-none-match'] === `"${checksum}"`) return reply.code(304).send(null)
      return reply.send(code)
    },
  )
  app.get(
    '/agent/download.sha256',
    {
      schema: {
        ...shared,
        description: "The agent file's SHA-256, as `sha256sum` prints it (`<hex>  guard-agent.mjs`).",
        response: { 200: z.string(), ...failures },
      },
    },
    async (_request, reply) => {
      const { sha256: checksum } = await agentArtifact(ctx)
      return reply.header('Content-Type', 'text/plain; charset=utf-8').send(`${checksum}  guard-agent.mjs\n`)
    },
  )
  app.get(
    '/agent/install.sh',
    {
      schema: {
        ...shared,
        description:
          'Installs the agent on a systemd host: `curl -fsSL <collector>/agent/install.sh | sudo sh -s -- --key guard_… --name web-1` downloads the agent, checks its SHA-256 (written into the script), checks Node, enrols, writes the hardened unit and enables it.',
        produces: ['text/x-shellscript'],
        response: { 200: z.string(), ...failures },
      },
    },
    async (request, reply) => {
      const [{ sha256: checksum }, script] = await Promise.all([agentArtifact(ctx), readFile(INSTALL_SCRIPT, 'utf8')])
      const filled = script
        .replace("COLLECTOR_URL='@@COLLECTOR_URL@@'", `COLLECTOR_URL='${collectorAddress(ctx, request)}'`)
        .replace("AGENT_SHA256='@@AGENT_SHA256@@'", `AGENT_SHA256='${checksum}'`)
      return reply
        .header('Content-Type', 'text/x-shellscript; charset=utf-8')
        .header('Cache-Control', 'no-cache')
        .send(filled)
    },
  )
}
