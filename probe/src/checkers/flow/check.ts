import type { CheckResult, ErrorKind, FlowStep, FlowStepRun, FlowTarget, HttpTarget } from '@guard/shared'
import { truncateText } from '@guard/shared'
import type { CheckContext, Checker, CheckOutcome } from '../../checker.ts'
import { fetchFollowing, judge } from '../http/check.ts'
import { classifyFailure, describeFailure, elapsedSince } from '../outcome.ts'
import { CookieJar } from './cookies.ts'
import { extractVariables } from './extract.ts'
import { FlowVariableError, interpolate, redact } from './template.ts'

interface Run {
  variables: Map<string, string>
  secrets: Record<string, string>
  cookies: CookieJar
}

interface StepVerdict {
  run: FlowStepRun
  status: CheckResult['status']
  errorKind?: ErrorKind
}

/** The step as the HTTP check's target, its `{{…}}` replaced and the jar's cookies added. */
function stepTarget(step: FlowStep, run: Run): HttpTarget {
  const fill = (text: string) => interpolate(text, run.variables, run.secrets)
  const url = new URL(fill(step.url))
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FlowVariableError(`${url.protocol} is not http`)
  const headers = Object.fromEntries(Object.entries(step.headers ?? {}).map(([name, value]) => [name, fill(value)]))
  const cookie = run.cookies.header(url.host)
  const hasCookie = Object.keys(headers).some((name) => name.toLowerCase() === 'cookie')
  if (cookie && !hasCookie) headers.Cookie = cookie
  const { name: _name, extract: _extract, alwaysRun: _alwaysRun, timeoutMs: _timeoutMs, jsonPath, ...options } = step
  return {
    ...options,
    kind: 'http',
    url: url.toString(),
    headers,
    ...(step.body === undefined ? {} : { body: fill(step.body) }),
    ...(jsonPath ? { jsonPath: jsonPath as HttpTarget['jsonPath'] } : {}),
  }
}

async function runStep(step: FlowStep, run: Run, context: CheckContext): Promise<StepVerdict> {
  const started = performance.now()
  const timeoutMs = Math.min(step.timeoutMs ?? context.timeoutMs, context.timeoutMs)
  const stepContext: CheckContext = {
    ...context,
    timeoutMs,
    signal: AbortSignal.any([context.signal, AbortSignal.timeout(timeoutMs)]),
  }
  try {
    const target = stepTarget(step, run)
    const hop = await fetchFollowing(target, stepContext)
    const totalMs = elapsedSince(started)
    const { response } = hop
    run.cookies.store(new URL(target.url).host, response.headers)
    const phases = {
      dnsMs: hop.dnsMs,
      connectMs: response.phases.connectMs,
      ...(response.phases.tlsMs === undefined ? {} : { tlsMs: response.phases.tlsMs }),
      firstByteMs: response.phases.firstByteMs,
    }
    const verdict = judge(target, hop, totalMs)
    const base = { name: step.name, statusCode: response.statusCode, ...phases, totalMs }
    if (verdict.status === 'down') {
      const error = truncateText(redact(verdict.error ?? 'failed', run.secrets), 2000)
      return { run: { ...base, outcome: 'failed', error }, status: 'down', ...withKind(verdict.errorKind) }
    }
    for (const [name, value] of extractVariables(step.extract ?? [], response)) run.variables.set(name, value)
    return { run: { ...base, outcome: 'passed' }, status: verdict.status, ...withKind(verdict.errorKind) }
  } catch (error) {
    const errorKind = error instanceof FlowVariableError ? 'extraction_failed' : classifyFailure(error, stepContext)
    const message = truncateText(redact(describeFailure(error, stepContext), run.secrets), 2000)
    return {
      run: { name: step.name, outcome: 'failed', error: message, totalMs: elapsedSince(started) },
      status: 'down',
      errorKind,
    }
  }
}

const withKind = (errorKind: ErrorKind | undefined) => (errorKind ? { errorKind } : {})

const secretsOf = (target: FlowTarget): Record<string, string> =>
  Object.fromEntries(Object.entries(target.secrets ?? {}).map(([name, value]) => [name, String(value)]))

/**
 * A multi-step API check (README "Synthetic checks"): the steps in order on fresh connections,
 * each vetted by the target guard like an HTTP check, variables and cookies carried along. After a
 * failure only `alwaysRun` steps run. The run's reason names the first failing step; every step's
 * outcome and timings go into `details.steps`, with secrets never quoted.
 */
export const flowChecker: Checker<'flow'> = {
  kind: 'flow',
  async check(target, context): Promise<CheckOutcome> {
    const started = performance.now()
    const run: Run = { variables: new Map(), secrets: secretsOf(target), cookies: new CookieJar() }
    const steps: FlowStepRun[] = []
    let failure: (StepVerdict & { step: string }) | undefined
    let degraded: (StepVerdict & { step: string }) | undefined
    for (const step of target.steps) {
      if (failure && !step.alwaysRun) {
        steps.push({ name: step.name, outcome: 'skipped', totalMs: 0 })
        continue
      }
      const verdict = await runStep(step, run, context)
      steps.push(verdict.run)
      if (verdict.status === 'down' && !failure) failure = { ...verdict, step: step.name }
      if (verdict.status === 'degraded' && !degraded) degraded = { ...verdict, step: step.name }
    }
    const responseTimeMs = elapsedSince(started)
    const reported = failure ?? degraded
    const last = steps.findLast((step) => step.statusCode !== undefined)
    return {
      status: failure ? 'down' : degraded ? 'degraded' : 'up',
      responseTimeMs,
      ...(reported
        ? {
            error: truncateText(`step "${reported.step}": ${reported.run.error ?? 'slow'}`, 2000),
            ...withKind(reported.errorKind),
          }
        : {}),
      ...((reported?.run.statusCode ?? last?.statusCode) === undefined
        ? {}
        : { statusCode: reported?.run.statusCode ?? last?.statusCode }),
      details: { steps },
    }
  },
}
