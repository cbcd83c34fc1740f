import { useState } from 'preact/hooks'
import { api, type Envelope } from '../api.ts'
import { Field, Form } from '../components/form.tsx'
import { ErrorText, Loading } from '../components/status.tsx'
import { Table } from '../components/table.tsx'
import { useResource } from '../components/use-api.ts'
import { useOrg } from '../org.ts'
import { type OrganizationSettings, ROLE_LABEL, SettingsHeader } from './settings-nav.tsx'

interface Usage {
  plan: string | null
  planName: string | null
  limits: Partial<
    Record<'monitors' | 'minIntervalSeconds' | 'locations' | 'statusPages' | 'retentionDays', number>
  > | null
  usage: { monitors: number; domains: number; services: number; minIntervalSeconds: number | null; locations: number }
}

interface UsageRow {
  name: string
  used: string
  limit: string
  /** Share of the limit in use, for the bar; undefined when nothing is counted against a limit. */
  share?: number
}

function usageRows(usage: Usage): UsageRow[] {
  const limits = usage.limits ?? {}
  const counted = (name: string, used: number, limit: number | undefined): UsageRow => ({
    name,
    used: String(used),
    limit: limit === undefined ? 'Unlimited' : String(limit),
    ...(limit === undefined ? {} : { share: limit === 0 ? 1 : used / limit }),
  })
  return [
    counted('Monitors (domains and services)', usage.usage.monitors, limits.monitors),
    counted('Locations per monitor', usage.usage.locations, limits.locations),
    {
      name: 'Shortest check interval',
      used: usage.usage.minIntervalSeconds === null ? '—' : `${usage.usage.minIntervalSeconds} s`,
      limit: limits.minIntervalSeconds === undefined ? 'Any' : `at least ${limits.minIntervalSeconds} s`,
    },
    {
      name: 'Status pages',
      used: '—',
      limit: limits.statusPages === undefined ? 'Unlimited' : String(limits.statusPages),
    },
    {
      name: 'History kept',
      used: '—',
      limit: limits.retentionDays === undefined ? 'Unlimited' : `${limits.retentionDays} days`,
    },
  ]
}

export default function Settings() {
  const { current } = useOrg()
  const organization = useResource(
    () => api.get<Envelope<OrganizationSettings>>('/api/organization').then((body) => body.data),
    [current.id],
  )
  const usage = useResource(() => api.get<Envelope<Usage>>('/api/usage').then((body) => body.data), [current.id])

  return (
    <section class="screen">
      <SettingsHeader />
      <section class="settings-section" aria-labelledby="org-heading">
        <h2 id="org-heading">Organization</h2>
        {organization.error ? <ErrorText error={organization.error} retry={organization.reload} /> : null}
        {organization.data ? (
          <OrganizationFacts organization={organization.data} onRenamed={organization.reload} />
        ) : organization.error ? null : (
          <Loading label="Loading the organization…" lines={4} />
        )}
      </section>
      <section class="settings-section" aria-labelledby="plan-heading">
        <h2 id="plan-heading">Plan and usage</h2>
        {usage.error ? <ErrorText error={usage.error} retry={usage.reload} /> : null}
        {usage.data ? (
          <>
            <p>
              {usage.data.plan === null
                ? 'No plan: nothing is limited.'
                : `Plan: ${usage.data.planName ?? usage.data.plan}.`}{' '}
              <span class="muted">The operator changes plans (guard identity orgs set-plan).</span>
            </p>
            <Table
              caption="Plan limits and what the organization uses"
              rows={usageRows(usage.data)}
              rowKey={(row) => row.name}
              columns={[
                { header: 'What', cell: (row) => row.name },
                { header: 'In use', cell: (row) => row.used, align: 'right' },
                { header: 'Limit', cell: (row) => row.limit, align: 'right' },
                {
                  header: 'Share',
                  secondary: true,
                  cell: (row) =>
                    row.share === undefined ? (
                      ''
                    ) : (
                      <span
                        class={`usage-bar ${row.share >= 1 ? 'full' : ''}`}
                        role="img"
                        aria-label={`${Math.round(row.share * 100)} % of the limit`}
                      >
                        <span style={{ width: `${Math.min(100, Math.round(row.share * 100))}%` }} />
                      </span>
                    ),
                },
              ]}
            />
          </>
        ) : usage.error ? null : (
          <Loading label="Loading the plan…" lines={5} />
        )}
      </section>
    </section>
  )
}

function OrganizationFacts({ organization, onRenamed }: { organization: OrganizationSettings; onRenamed: () => void }) {
  const [name, setName] = useState(organization.name)
  const [renamed, setRenamed] = useState<string | undefined>(undefined)
  const rename = async () => {
    setRenamed(undefined)
    const answer = await api.patch<Envelope<OrganizationSettings>>('/api/organization', { name })
    setRenamed(answer.data.name)
    onRenamed()
  }
  return (
    <>
      <dl class="facts">
        <dt>Name</dt>
        <dd>{organization.name}</dd>
        <dt>Slug</dt>
        <dd>
          <code>{organization.slug}</code>
        </dd>
        <dt>Members</dt>
        <dd>
          <a href="/settings/members">{organization.members}</a>
        </dd>
        <dt>Your role</dt>
        <dd>{organization.myRole ? ROLE_LABEL[organization.myRole] : 'Platform administrator'}</dd>
      </dl>
      {organization.myRole === 'owner' ? (
        <Form onSubmit={rename} submitLabel="Rename" busyLabel="Renaming…">
          <Field label="Organization name" hint="Shown in the console, on invitations and in e-mails">
            {(id, describedBy) => (
              <input
                id={id}
                aria-describedby={describedBy}
                required
                maxLength={200}
                value={name}
                onInput={(event) => {
                  setName(event.currentTarget.value)
                  setRenamed(undefined)
                }}
              />
            )}
          </Field>
          <p class="done" role="status">
            {renamed
              ? `Renamed to ${renamed}. The top bar follows when the console renews its token (within 15 minutes).`
              : ''}
          </p>
        </Form>
      ) : (
        <p class="muted">Only an owner can rename the organization.</p>
      )}
    </>
  )
}
