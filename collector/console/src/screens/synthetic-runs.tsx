import { useRoute } from 'preact-iso'
import { api, type Envelope } from '../api.ts'
import { Empty, ErrorText, Loading, StateDot } from '../components/status.tsx'
import { type Column, Table } from '../components/table.tsx'
import { Time } from '../components/time.tsx'
import { useResource } from '../components/use-api.ts'

interface BrowserStep {
  name: string
  status: 'passed' | 'failed'
  durationMs: number
}

interface Navigation {
  url: string
  ttfbMs?: number
  lcpMs?: number
  cls: number
  tbtMs: number
}

interface FailedRequest {
  url: string
  method: string
  reason: string
  blocked: boolean
}

interface StepRun {
  name: string
  outcome: string
  statusCode?: number
  error?: string
  totalMs: number
}

interface Run {
  id: string
  location: string
  startedAt: string
  status: 'up' | 'down' | 'degraded'
  responseTimeMs: number
  error: string | null
  steps: StepRun[]
  browser: {
    failedStep: string | null
    timedOut: boolean
    steps: BrowserStep[]
    navigations: Navigation[]
    consoleErrors: string[]
    failedRequests: FailedRequest[]
    artifacts: { screenshot?: string; trace?: string }
  } | null
}

interface Synthetic {
  id: string
  name: string
  type: 'api' | 'browser'
  browserUnavailableAt: string[]
}

const ms = (value: number | undefined) => (value === undefined ? '' : `${Math.round(value)} ms`)

const stepColumns: Array<Column<BrowserStep>> = [
  { header: 'Step', cell: (step) => step.name },
  {
    header: 'Outcome',
    cell: (step) => <StateDot state={step.status === 'passed' ? 'up' : 'down'} label={step.status} />,
  },
  { header: 'Time', align: 'right', cell: (step) => ms(step.durationMs) },
]

const vitalColumns: Array<Column<Navigation>> = [
  { header: 'Page', cell: (navigation) => navigation.url },
  { header: 'TTFB', align: 'right', cell: (navigation) => ms(navigation.ttfbMs) },
  { header: 'LCP', align: 'right', cell: (navigation) => ms(navigation.lcpMs) },
  { header: 'CLS', align: 'right', cell: (navigation) => navigation.cls.toFixed(3) },
  { header: 'TBT', align: 'right', cell: (navigation) => ms(navigation.tbtMs) },
]

const apiStepColumns: Array<Column<StepRun>> = [
  { header: 'Step', cell: (step) => step.name },
  { header: 'Outcome', cell: (step) => step.outcome },
  { header: 'Status', cell: (step) => step.statusCode ?? '' },
  { header: 'Time', align: 'right', cell: (step) => ms(step.totalMs) },
  { header: 'Error', cell: (step) => step.error ?? '' },
]

/** One run: its steps with durations, a browser run's vitals, console errors, failed requests and artifacts. */
function RunDetail({ run }: { run: Run }) {
  const { browser } = run
  return (
    <article class="stack">
      <h2>
        <StateDot state={run.status} label={run.status} /> <Time value={run.startedAt} /> from {run.location} in{' '}
        {ms(run.responseTimeMs)}
      </h2>
      {run.error ? <p role="alert">{run.error}</p> : null}
      {browser ? (
        <>
          <Table rows={browser.steps} columns={stepColumns} rowKey={(step) => step.name} caption="Steps" />
          {browser.navigations.length > 0 ? (
            <Table
              rows={browser.navigations}
              columns={vitalColumns}
              rowKey={(navigation) => navigation.url}
              caption="Web Vitals per page"
            />
          ) : null}
          {browser.consoleErrors.length > 0 ? (
            <>
              <h3>Console errors</h3>
              <ul>
                {browser.consoleErrors.map((text) => (
                  <li key={text}>{text}</li>
                ))}
              </ul>
            </>
          ) : null}
          {browser.failedRequests.length > 0 ? (
            <>
              <h3>Failed requests</h3>
              <ul>
                {browser.failedRequests.map((request) => (
                  <li key={`${request.method} ${request.url}`}>
                    {request.method} {request.url}: {request.reason}
                    {request.blocked ? ' (blocked by the probe)' : ''}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {browser.artifacts.screenshot ? (
            <img src={browser.artifacts.screenshot} alt={`The page at the end of the run ${run.id}`} width={640} />
          ) : null}
          {browser.artifacts.trace ? (
            <p>
              <a href={browser.artifacts.trace} download>
                Download the Playwright trace
              </a>{' '}
              (open it with <code>npx playwright show-trace trace.zip</code>)
            </p>
          ) : null}
        </>
      ) : (
        <Table rows={run.steps} columns={apiStepColumns} rowKey={(step) => step.name} caption="Steps" />
      )}
    </article>
  )
}

/** A synthetic check's run page: its last runs, newest first; incidents of the check link here. */
export default function SyntheticRuns() {
  const { params } = useRoute()
  const id = params.id ?? ''
  const path = `/api/synthetics/${encodeURIComponent(id)}`
  const check = useResource(() => api.get<Envelope<Synthetic>>(path).then((body) => body.data), [path])
  const runs = useResource(
    () => api.get<Envelope<Run[]>>(`${path}/runs`, { limit: 10 }).then((body) => body.data),
    [path],
  )
  return (
    <section class="stack">
      <a href="/synthetics">← Synthetic checks</a>
      <h1>{check.data?.name ?? 'Synthetic check'}</h1>
      {check.data && check.data.browserUnavailableAt.length > 0 ? (
        <p role="alert">
          No probe with a browser is connected at {check.data.browserUnavailableAt.join(', ')}: the check cannot run
          there.
        </p>
      ) : null}
      {check.error ? <ErrorText error={check.error} retry={check.reload} /> : null}
      {runs.loading && !runs.data ? <Loading /> : null}
      {runs.error ? <ErrorText error={runs.error} retry={runs.reload} /> : null}
      {runs.data && runs.data.length === 0 ? <Empty title="No runs yet" /> : null}
      {runs.data?.map((run) => (
        <RunDetail key={run.id} run={run} />
      ))}
    </section>
  )
}
