import { useState } from 'preact/hooks'
import { api, type Envelope } from '../api.ts'
import { type MonitorMatch, MonitorSearch, namesOf } from '../components/monitor-search.tsx'
import { ErrorText, Loading } from '../components/status.tsx'
import { useResource } from '../components/use-api.ts'

interface Dependencies {
  monitorId: string
  dependsOn: string[]
  dependents: string[]
  dependentsCount: number
  suppressedBy: { monitorId: string; incidentId: string | null } | null
}
const BOX_WIDTH = 150
const BOX_HEIGHT = 28
const GAP = 16

/** One row of boxes centred on the graph, each truncated to fit. */
function Row({ names, y, width, strong }: { names: string[]; y: number; width: number; strong?: boolean }) {
  const start = (width - (names.length * (BOX_WIDTH + GAP) - GAP)) / 2
  return (
    <>
      {names.map((name, index) => (
        <g key={`${y}-${index}`} transform={`translate(${start + index * (BOX_WIDTH + GAP)},${y})`}>
          <rect
            width={BOX_WIDTH}
            height={BOX_HEIGHT}
            rx={6}
            fill="none"
            stroke="currentColor"
            stroke-opacity={strong ? 1 : 0.5}
            stroke-width={strong ? 2 : 1}
          />
          <text x={BOX_WIDTH / 2} y={BOX_HEIGHT / 2 + 4} text-anchor="middle" fill="currentColor" font-size={12}>
            {name.length > 20 ? `${name.slice(0, 19)}…` : name}
          </text>
        </g>
      ))}
    </>
  )
}

/** Parents above, this monitor in the middle, dependents below; edges run from each parent down to each dependent. */
function DependencyGraph({ self, parents, dependents }: { self: string; parents: string[]; dependents: string[] }) {
  const columns = Math.max(1, parents.length, dependents.length)
  const width = columns * (BOX_WIDTH + GAP)
  const step = BOX_HEIGHT + 32
  const selfY = parents.length ? step : 0
  const dependentsY = selfY + step
  const height = dependents.length ? dependentsY + BOX_HEIGHT : selfY + BOX_HEIGHT
  const centres = (count: number) =>
    Array.from(
      { length: count },
      (_, index) => (width - (count * (BOX_WIDTH + GAP) - GAP)) / 2 + index * (BOX_WIDTH + GAP) + BOX_WIDTH / 2,
    )
  return (
    <svg
      class="dependency-graph"
      role="img"
      aria-label={`${self} depends on ${parents.length} monitors; ${dependents.length} depend on it`}
      viewBox={`0 0 ${width} ${height}`}
      style={{ display: 'block', margin: '0.5rem 0 1rem', maxWidth: `${width}px`, width: '100%' }}
    >
      {centres(parents.length).map((x) => (
        <line
          key={`p${x}`}
          x1={x}
          y1={BOX_HEIGHT}
          x2={width / 2}
          y2={selfY}
          stroke="currentColor"
          stroke-opacity={0.4}
        />
      ))}
      {centres(dependents.length).map((x) => (
        <line
          key={`d${x}`}
          x1={width / 2}
          y1={selfY + BOX_HEIGHT}
          x2={x}
          y2={dependentsY}
          stroke="currentColor"
          stroke-opacity={0.4}
        />
      ))}
      {parents.length ? <Row names={parents} y={0} width={width} /> : null}
      <Row names={[self]} y={selfY} width={width} strong />
      {dependents.length ? <Row names={dependents} y={dependentsY} width={width} /> : null}
    </svg>
  )
}

/**
 * "Depends on" for a domain, service or heartbeat's detail page: pick its parents among the
 * organization's monitors (saved with PUT /api/monitors/{id}/dependencies; a cycle's 400 is shown as
 * the API words it), see them and its dependents as a small graph, and why a failure was suppressed.
 */
export function MonitorDependencies({ id, name }: { id: string; name: string }) {
  const dependencies = useResource(
    () =>
      api.get<Envelope<Dependencies>>(`/api/monitors/${encodeURIComponent(id)}/dependencies`).then((body) => body.data),
    [id],
  )
  const related = dependencies.data
    ? [...dependencies.data.dependsOn, ...dependencies.data.dependents, dependencies.data.suppressedBy?.monitorId ?? '']
    : []
  const known = useResource(() => namesOf(related.filter(Boolean)), [related.join(',')])
  const [picked, setPicked] = useState<MonitorMatch[] | undefined>(undefined)
  const [saving, setSaving] = useState(false)
  const [saveError, setSaveError] = useState<unknown>(undefined)
  if (dependencies.error && !dependencies.data)
    return <ErrorText error={dependencies.error} retry={dependencies.reload} />
  if (!dependencies.data || !known.data) return <Loading lines={3} label="Loading dependencies…" />
  const names = known.data
  const nameOf = (monitorId: string) => names.get(monitorId)?.name ?? monitorId
  const selected =
    picked ??
    dependencies.data.dependsOn.map(
      (parent) => names.get(parent) ?? { kind: 'domain' as const, id: parent, name: parent },
    )
  const save = async () => {
    setSaving(true)
    setSaveError(undefined)
    try {
      await api.put(`/api/monitors/${encodeURIComponent(id)}/dependencies`, {
        dependsOn: selected.map((parent) => parent.id),
      })
      setPicked(undefined)
      dependencies.reload()
    } catch (error) {
      setSaveError(error)
    } finally {
      setSaving(false)
    }
  }
  const suppressedBy = dependencies.data.suppressedBy
  return (
    <section aria-labelledby="dependencies-title" class="card">
      <h2 id="dependencies-title">Dependencies</h2>
      {suppressedBy ? (
        <p role="status" class="muted">
          {suppressedBy.incidentId ? (
            <>
              Its failure is counted under {nameOf(suppressedBy.monitorId)}, which is down (
              <a href={`/incidents/${encodeURIComponent(suppressedBy.incidentId)}`}>incident</a>)
            </>
          ) : (
            // Held: the parent fails below its threshold and may open the incident this failure joins.
            <>Its failure is held behind {nameOf(suppressedBy.monitorId)}, which is failing</>
          )}
          : no incident of its own, no notification.
        </p>
      ) : null}
      <DependencyGraph
        self={name}
        parents={dependencies.data.dependsOn.map(nameOf)}
        dependents={dependencies.data.dependents.map(nameOf)}
      />
      <h3 id="depends-on-title">Depends on</h3>
      {selected.length === 0 ? (
        <p class="muted">Nothing: its failures always open its own incident.</p>
      ) : (
        <ul aria-labelledby="depends-on-title">
          {selected.map((parent) => (
            <li key={parent.id}>
              {parent.name}{' '}
              <button
                type="button"
                class="link"
                aria-label={`Remove ${parent.name}`}
                onClick={() => setPicked(selected.filter((other) => other.id !== parent.id))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <MonitorSearch
        id="depends-on"
        label="Add a monitor it depends on"
        kinds={['domain', 'service', 'heartbeat']}
        exclude={[id, ...selected.map((parent) => parent.id)]}
        onPick={(match) => setPicked([...selected, match])}
      />
      <p>
        <button type="button" onClick={save} disabled={saving || picked === undefined}>
          {saving ? 'Saving…' : 'Save dependencies'}
        </button>
      </p>
      <ErrorText error={saveError} />
    </section>
  )
}
