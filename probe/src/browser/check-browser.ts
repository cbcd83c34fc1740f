import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import {
  ARTIFACT_CHUNK_BYTES,
  ARTIFACT_MAX_BYTES,
  type ArtifactUpload,
  type BrowserArtifactName,
  type BrowserRun,
  type BrowserTarget,
  type MonitorConfig,
  truncateText,
} from '@guard/shared'
import type { CheckOutcome } from '../checker.ts'
import type { BrowserChecks } from './browser-checks.ts'

/** Sends one piece of an artifact to the collector and resolves once it is stored. */
export type UploadArtifact = (piece: ArtifactUpload) => Promise<void>

export interface BrowserCheckRun {
  monitor: MonitorConfig
  target: BrowserTarget
  /** The result's id: the collector files the run's artifacts under it. */
  resultId: string
  timeoutMs: number
}

/** The run's screenshot and trace handed to the collector piece by piece; the ones stored. */
async function shipArtifacts(
  run: BrowserCheckRun,
  browserRun: BrowserRun,
  artifactsDir: string,
  upload: UploadArtifact,
  notes: string[],
): Promise<BrowserArtifactName[]> {
  const files: [BrowserArtifactName, string | undefined][] = [
    ['screenshot.png', browserRun.artifacts.screenshot],
    ['trace.zip', browserRun.artifacts.trace],
  ]
  const stored: BrowserArtifactName[] = []
  for (const [name, file] of files) {
    if (!file) continue
    const path = join(artifactsDir, file)
    try {
      const data = await readFile(path)
      if (data.length > ARTIFACT_MAX_BYTES) {
        notes.push(`${name} not kept: ${data.length} bytes, more than ${ARTIFACT_MAX_BYTES}`)
        continue
      }
      for (let index = 0; index * ARTIFACT_CHUNK_BYTES < Math.max(data.length, 1); index += 1) {
        const piece = data.subarray(index * ARTIFACT_CHUNK_BYTES, (index + 1) * ARTIFACT_CHUNK_BYTES)
        await upload({
          v: 1,
          organizationId: run.monitor.organizationId,
          monitorId: run.monitor.id,
          resultId: run.resultId,
          name,
          index,
          data: piece.toString('base64'),
        })
      }
      stored.push(name)
    } catch (error) {
      notes.push(`${name} not kept: ${(error as Error).message}`)
    } finally {
      await rm(path, { force: true })
    }
  }
  return stored
}

/**
 * Runs a browser check in the probe's browser slots (fair across organizations), hands its
 * screenshot and trace to the collector before the result exists, and turns the run into the
 * result's outcome: `down` with the failing step named, every step, vital and console error in
 * `details.browser`.
 */
export async function checkBrowser(
  deps: { checks: BrowserChecks; artifactsDir: string; upload: UploadArtifact },
  run: BrowserCheckRun,
): Promise<CheckOutcome> {
  const browserRun = await deps.checks.run(run.monitor.organizationId, {
    script: run.target.script,
    secrets: run.target.secrets ?? {},
    timeoutMs: Math.max(1000, run.timeoutMs),
    screenshotOnSuccess: run.target.screenshotOnSuccess ?? false,
  })
  const notes: string[] = []
  const artifacts = await shipArtifacts(run, browserRun, deps.artifactsDir, deps.upload, notes)
  const failed = browserRun.status === 'failed'
  const reason = browserRun.failedStep
    ? `step "${browserRun.failedStep}": ${browserRun.error ?? 'failed'}`
    : (browserRun.error ?? 'failed')
  return {
    status: failed ? 'down' : 'up',
    responseTimeMs: browserRun.durationMs,
    ...(failed
      ? { error: truncateText(reason, 2000), errorKind: browserRun.timedOut ? 'timeout' : 'script_failed' }
      : {}),
    details: {
      browser: {
        testName: browserRun.testName,
        timedOut: browserRun.timedOut,
        ...(browserRun.failedStep ? { failedStep: browserRun.failedStep } : {}),
        steps: browserRun.steps,
        navigations: browserRun.navigations,
        consoleErrors: [...browserRun.consoleErrors, ...notes].slice(0, 50),
        failedRequests: browserRun.failedRequests,
        artifacts,
      },
    },
  }
}
