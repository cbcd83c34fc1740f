import { z } from 'zod'
import { BROWSER_RUN_LIMITS, browserFailedRequestV1, browserNavigationV1, browserStepV1 } from './browser-run.ts'
import { flowSecretName } from './flow.ts'

/** Largest script a browser check may carry: it travels in every schedule message. */
export const BROWSER_SCRIPT_MAX_BYTES = 64 * 1024

/**
 * A browser check (synthetic `type: 'browser'`): a Playwright-style script that only probes with
 * a browser (heartbeat `browser: true`) run. `secrets` reach the script as `secrets.NAME`.
 */
export const browserTarget = z.object({
  kind: z.literal('browser'),
  script: z
    .string()
    .min(1)
    .refine((script) => Buffer.byteLength(script) <= BROWSER_SCRIPT_MAX_BYTES, {
      message: `must be at most ${BROWSER_SCRIPT_MAX_BYTES} bytes`,
    }),
  /** Also keep a screenshot of runs that pass. */
  screenshotOnSuccess: z.boolean().optional(),
  secrets: z.record(flowSecretName, z.string().max(8192)).optional(),
  sealedSecrets: z.string().min(1).max(20_000).optional(),
})
export type BrowserTarget = z.infer<typeof browserTarget>

/** The artifact names a run may store; the collector serves nothing else. */
export const browserArtifactName = z.enum(['screenshot.png', 'trace.zip'])
export type BrowserArtifactName = z.infer<typeof browserArtifactName>

/**
 * What a browser run adds to its result (`details.browser`): the run's record without what the
 * result says already, and the artifacts the collector stored for it.
 */
export const browserRunDetails = z.object({
  testName: z.string().max(BROWSER_RUN_LIMITS.text),
  timedOut: z.boolean(),
  failedStep: z.string().max(BROWSER_RUN_LIMITS.text).optional(),
  steps: z.array(browserStepV1).max(BROWSER_RUN_LIMITS.steps),
  navigations: z.array(browserNavigationV1).max(BROWSER_RUN_LIMITS.navigations),
  consoleErrors: z.array(z.string().max(BROWSER_RUN_LIMITS.text)).max(BROWSER_RUN_LIMITS.consoleErrors),
  failedRequests: z.array(browserFailedRequestV1).max(BROWSER_RUN_LIMITS.failedRequests),
  artifacts: z.array(browserArtifactName).max(2),
})
export type BrowserRunDetails = z.infer<typeof browserRunDetails>

/** An artifact's largest size; a bigger one is not kept (the run says so in its console errors). */
export const ARTIFACT_MAX_BYTES = 8 * 1024 * 1024
/** Raw bytes per upload message: base64 in JSON stays well under NATS's default 1 MiB payload. */
export const ARTIFACT_CHUNK_BYTES = 512 * 1024

/**
 * One piece of an artifact a probe hands the collector after a run and before its result, over
 * request/reply (`artifactUploadSubject`), in order: `index` 0 starts the file, the next ones
 * append. Base64 in JSON, so each message stays under the bus's payload limit.
 */
export const artifactUploadV1 = z.object({
  v: z.literal(1),
  organizationId: z.string().min(1).max(64),
  monitorId: z.string().min(1).max(64),
  resultId: z.string().min(1).max(64),
  name: browserArtifactName,
  index: z
    .int()
    .min(0)
    .max(Math.ceil(ARTIFACT_MAX_BYTES / ARTIFACT_CHUNK_BYTES) - 1),
  data: z.base64().max(Math.ceil(ARTIFACT_CHUNK_BYTES / 3) * 4),
})
export type ArtifactUpload = z.infer<typeof artifactUploadV1>

/** Collectors answer artifact uploads here, in the queue group `collectors`. */
export const artifactUploadSubject = (location: string) => `collector.artifacts.${location}`
