import { spawn } from 'node:child_process'
import { loadavg } from 'node:os'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import type { FlowTarget, HttpTarget } from '@guard/shared'
import { checkOnThisThread } from '../../probe/src/checkers/index.ts'
import { FLOW_APP_PASSWORD } from '../../probe/src/testing/flow-app.ts'

/**
 * bench/protocols/flow: the cost of a multi-step API check per step against a single HTTP check.
 * The fixture app (login → create → read → read → delete) runs in another process on 127.0.0.1.
 * BENCH_CHECKS (default 200) sequential 5-step flows and as many single HTTP checks (the login
 * request alone), after a warm-up of a tenth; reports CPU and wall time per run and per step, and
 * the ratio of one step to one HTTP check. Run: node --import tsx bench/protocols/flow.ts
 */
const CHECKS = Number(process.env.BENCH_CHECKS ?? 200)
const WARMUP = Math.max(5, Math.round(CHECKS / 10))
const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits

const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./flow-app.ts', import.meta.url))], {
  stdio: ['pipe', 'pipe', 'inherit'],
})
const url = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve))

const login = {
  method: 'POST' as const,
  url: `${url}/login`,
  body: '{"user":"bench","password":"{{secrets.PASSWORD}}"}',
  expectedStatus: [200],
}
const auth = { Authorization: 'Bearer {{token}}' }
const flow: FlowTarget = {
  kind: 'flow',
  secrets: { PASSWORD: FLOW_APP_PASSWORD },
  steps: [
    { name: 'login', ...login, extract: [{ name: 'token', from: 'json', path: '$.token' }] },
    {
      name: 'create',
      method: 'POST',
      url: `${url}/items`,
      headers: auth,
      body: '{"name":"bench"}',
      expectedStatus: [201],
      extract: [{ name: 'id', from: 'json', path: '$.id' }],
    },
    {
      name: 'read',
      method: 'GET',
      url: `${url}/items/{{id}}`,
      headers: auth,
      jsonPath: { path: '$.name', equals: 'bench' },
    },
    { name: 'read again', method: 'GET', url: `${url}/items/{{id}}`, headers: auth, conditions: ['[STATUS] == 200'] },
    {
      name: 'delete',
      method: 'DELETE',
      url: `${url}/items/{{id}}`,
      headers: auth,
      expectedStatus: [204],
      alwaysRun: true,
    },
  ],
}
const single: HttpTarget = {
  kind: 'http',
  method: 'POST',
  url: `${url}/login`,
  body: `{"user":"bench","password":"${FLOW_APP_PASSWORD}"}`,
  expectedStatus: [200],
}

async function measure(target: FlowTarget | HttpTarget) {
  const options = { timeoutMs: 10_000, allowPrivate: true }
  for (let i = 0; i < WARMUP; i++) await checkOnThisThread(target, options)
  const walls: number[] = []
  const cpuStart = process.cpuUsage()
  for (let i = 0; i < CHECKS; i++) {
    const started = performance.now()
    const outcome = await checkOnThisThread(target, options)
    walls.push(performance.now() - started)
    if (outcome.status !== 'up') throw new Error(`${target.kind} run ${i} was ${outcome.status}: ${outcome.error}`)
  }
  const cpu = process.cpuUsage(cpuStart)
  walls.sort((a, b) => a - b)
  return {
    cpuMs: round((cpu.user + cpu.system) / 1000 / CHECKS),
    wallMsP50: round(walls[Math.floor(CHECKS / 2)]!),
    wallMsP95: round(walls[Math.floor(CHECKS * 0.95)]!),
  }
}

const startLoad = loadavg().map((load) => round(load, 2))
const http = await measure(single)
const flowRun = await measure(flow)
const steps = flow.steps.length
console.log(
  JSON.stringify(
    {
      checks: CHECKS,
      steps,
      singleHttp: http,
      flow: flowRun,
      perStep: { cpuMs: round(flowRun.cpuMs / steps), wallMsP50: round(flowRun.wallMsP50 / steps) },
      ratioPerStep: {
        cpu: round(flowRun.cpuMs / steps / http.cpuMs, 2),
        wall: round(flowRun.wallMsP50 / steps / http.wallMsP50, 2),
      },
      loadAverage: { start: startLoad, end: loadavg().map((load) => round(load, 2)) },
    },
    null,
    2,
  ),
)
child.stdin.end()
