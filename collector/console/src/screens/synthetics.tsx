import { useState } from 'preact/hooks'
import { api, type Envelope } from '../api.ts'
import { ManagedBadge, useManagedByCode } from '../components/managed-by-code.tsx'
import { Empty, ErrorText, Loading, StateDot } from '../components/status.tsx'
import { type Column, Table } from '../components/table.tsx'
import { useResource } from '../components/use-api.ts'
import { useOrg } from '../org.ts'
import { useAction } from '../use-action.ts'

interface Step {
  name: string
  method: string
  url: string
  body?: string
  expectedStatus?: number[]
  extract?: Array<{ name: string; from: 'json'; path: string }>
  alwaysRun?: boolean
}

interface Synthetic {
  id: string
  name: string
  steps: Step[]
  secretsSet: boolean
  checkInterval: number
  enabled: boolean
  tags: string[]
}

interface StepRun {
  name: string
  outcome: 'passed' | 'failed' | 'skipped'
  statusCode?: number
  error?: string
  totalMs: number
}

interface Run {
  id: string
  location: string
  status: string
  responseTimeMs: number
  error: string | null
  steps: StepRun[]
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']
const blankStep = (index: number): Step => ({ name: `step ${index + 1}`, method: 'GET', url: 'https://' })

/** One step of the editor: the request, the expected status and one JSON extraction. */
function StepEditor({
  step,
  onChange,
  onRemove,
}: {
  step: Step
  onChange: (step: Step) => void
  onRemove: () => void
}) {
  const extraction = step.extract?.[0]
  const set = (change: Partial<Step>) => onChange({ ...step, ...change })
  return (
    <fieldset class="stack">
      <div class="row">
        <input aria-label="Step name" value={step.name} onInput={(e) => set({ name: e.currentTarget.value })} />
        <select aria-label="Method" value={step.method} onChange={(e) => set({ method: e.currentTarget.value })}>
          {METHODS.map((method) => (
            <option key={method}>{method}</option>
          ))}
        </select>
        <input aria-label="URL" size={50} value={step.url} onInput={(e) => set({ url: e.currentTarget.value })} />
        <button type="button" onClick={onRemove}>
          Remove
        </button>
      </div>
      <textarea
        aria-label="Body"
        placeholder="Body (not for GET); {{variable}} and {{secrets.NAME}} are replaced"
        value={step.body ?? ''}
        onInput={(e) => set({ body: e.currentTarget.value || undefined })}
      />
      <div class="row">
        <input
          aria-label="Expected status"
          placeholder="Expected status, e.g. 201"
          value={step.expectedStatus?.join(',') ?? ''}
          onInput={(e) => {
            const codes = e.currentTarget.value.split(',').map(Number).filter(Number.isInteger)
            set({ expectedStatus: codes.length > 0 ? codes : undefined })
          }}
        />
        <input
          aria-label="Extract into"
          placeholder="Extract into variable"
          value={extraction?.name ?? ''}
          onInput={(e) => {
            const name = e.currentTarget.value
            set({ extract: name ? [{ name, from: 'json', path: extraction?.path ?? '$.' }] : undefined })
          }}
        />
        <input
          aria-label="From JSONPath"
          placeholder="$.token"
          value={extraction?.path ?? ''}
          onInput={(e) => extraction && set({ extract: [{ ...extraction, path: e.currentTarget.value }] })}
        />
        <label>
          <input
            type="checkbox"
            checked={step.alwaysRun ?? false}
            onChange={(e) => set({ alwaysRun: e.currentTarget.checked || undefined })}
          />{' '}
          Always run (clean-up)
        </label>
      </div>
    </fieldset>
  )
}

/** The steps of a run, each with its outcome and time. */
function RunResult({ run }: { run: Run }) {
  const columns: Array<Column<StepRun>> = [
    { header: 'Step', cell: (step) => step.name },
    {
      header: 'Outcome',
      cell: (step) => (
        <StateDot
          state={step.outcome === 'passed' ? 'up' : step.outcome === 'failed' ? 'down' : 'unknown'}
          label={step.outcome}
        />
      ),
    },
    { header: 'Status', cell: (step) => step.statusCode ?? '' },
    { header: 'Time', align: 'right', cell: (step) => `${step.totalMs} ms` },
    { header: 'Error', cell: (step) => step.error ?? '' },
  ]
  return (
    <div>
      <p>
        <StateDot state={run.status} label={run.status} /> from {run.location} in {run.responseTimeMs} ms
        {run.error ? ` — ${run.error}` : ''}
      </p>
      <Table rows={run.steps} columns={columns} rowKey={(step) => step.name} caption="Steps of the run" />
    </div>
  )
}

/** Synthetic checks (multi-step API flows): the list, a step editor and "run now" from a location. */
export default function Synthetics() {
  const { current } = useOrg()
  const managed = useManagedByCode(current.id)
  const list = useResource(
    () => api.get<Envelope<Synthetic[]>>('/api/synthetics', { organizationId: current.id }).then((body) => body.data),
    [current.id],
  )
  const [name, setName] = useState('')
  const [steps, setSteps] = useState<Step[]>([blankStep(0)])
  const [secrets, setSecrets] = useState('')
  const [location, setLocation] = useState('any')
  const [run, setRun] = useState<Run | undefined>(undefined)
  const save = useAction()
  const runner = useAction()

  const create = () =>
    save.run(async () => {
      const pairs = secrets
        .split('\n')
        .map((line) => line.split('='))
        .filter(([key, ...value]) => key?.trim() && value.length > 0)
      await api.post(`/api/synthetics?organizationId=${encodeURIComponent(current.id)}`, {
        name,
        steps,
        ...(pairs.length > 0
          ? { secrets: Object.fromEntries(pairs.map(([key, ...value]) => [key!.trim(), value.join('=')])) }
          : {}),
      })
      setName('')
      setSteps([blankStep(0)])
      setSecrets('')
      list.reload()
    })
  const runNow = (id: string) =>
    runner.run(async () => {
      const body = await api.post<Envelope<Run>>(`/api/synthetics/${id}/run?location=${encodeURIComponent(location)}`)
      setRun(body.data)
    })

  const columns: Array<Column<Synthetic>> = [
    {
      header: 'Check',
      cell: (synthetic) => (
        <>
          <a href={`/synthetics/${encodeURIComponent(synthetic.id)}`}>{synthetic.name}</a>
          {managed.has(synthetic.id) && <ManagedBadge />}
        </>
      ),
    },
    { header: 'Steps', cell: (synthetic) => synthetic.steps.map((step) => step.name).join(' → ') },
    { header: 'Every', align: 'right', cell: (synthetic) => `${synthetic.checkInterval} s` },
    {
      header: 'Run',
      cell: (synthetic) => (
        <button type="button" disabled={runner.busy} onClick={() => runNow(synthetic.id)}>
          Run now
        </button>
      ),
    },
  ]

  return (
    <section class="stack">
      <h1>Synthetic checks</h1>
      <label>
        Run from location{' '}
        <input
          aria-label="Location"
          value={location}
          size={8}
          onInput={(e) => setLocation(e.currentTarget.value || 'any')}
        />
      </label>
      {list.loading && !list.data ? <Loading /> : null}
      {list.error ? <ErrorText error={list.error} retry={list.reload} /> : null}
      {list.data && list.data.length === 0 ? <Empty title="No synthetic checks yet" /> : null}
      {list.data && list.data.length > 0 ? (
        <Table rows={list.data} columns={columns} rowKey={(synthetic) => synthetic.id} caption="Synthetic checks" />
      ) : null}
      {runner.error ? <ErrorText error={runner.error} /> : null}
      {run ? <RunResult run={run} /> : null}
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault()
          void create()
        }}
      >
        <h2>New multi-step API check</h2>
        <input
          aria-label="Name"
          placeholder="Name"
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
          required
        />
        {steps.map((step, index) => (
          <StepEditor
            key={index}
            step={step}
            onChange={(changed) => setSteps(steps.map((old, at) => (at === index ? changed : old)))}
            onRemove={() => setSteps(steps.filter((_, at) => at !== index))}
          />
        ))}
        <button type="button" onClick={() => setSteps([...steps, blankStep(steps.length)])}>
          Add step
        </button>
        <textarea
          aria-label="Secrets"
          placeholder="Secrets, one NAME=value a line (write-only, used as {{secrets.NAME}})"
          value={secrets}
          onInput={(e) => setSecrets(e.currentTarget.value)}
        />
        {save.error ? <ErrorText error={save.error} /> : null}
        <button type="submit" disabled={save.busy}>
          Create
        </button>
      </form>
    </section>
  )
}
