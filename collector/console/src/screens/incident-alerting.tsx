import { api, type Envelope } from '../api.ts'
import { Badge, Empty, ErrorText, Loading } from '../components/status.tsx'
import { Table } from '../components/table.tsx'
import { Time } from '../components/time.tsx'
import { type Resource, useResource } from '../components/use-api.ts'

export interface AlertingTimeline {
  deliveries: Array<{
    id: string
    channelId: string
    channelName: string
    provider: string
    purpose: string
    eventType: string
    status: string
    attempts: number
    createdAt: string
    dueAt: string | null
    deliveredAt: string | null
    lastError: string | null
  }>
  escalations: Array<{
    routeId: string
    routeName: string | null
    round: number
    nextStep: number
    nextStepAt: string | null
    nextReminderAt: string | null
    remindersSent: number
    stoppedAt: string | null
    stoppedReason: string | null
  }>
}

const TONE: Record<string, string> = {
  delivered: 'up',
  failed: 'down',
  pending: 'degraded',
  held: 'degraded',
  superseded: 'neutral',
  digested: 'neutral',
}

export const useAlertingTimeline = (incidentPath: string) =>
  useResource(
    () => api.get<Envelope<AlertingTimeline>>(`${incidentPath}/notifications`).then((body) => body.data),
    [incidentPath],
  )

/** Who was told about the incident, why and how it went; and where each escalation stands. */
export function IncidentAlerting({ timeline }: { timeline: Resource<AlertingTimeline> }) {
  const data = timeline.data
  return (
    <section aria-labelledby="alerting-heading">
      <h2 id="alerting-heading">Alerting</h2>
      {timeline.error ? <ErrorText error={timeline.error} retry={timeline.reload} /> : null}
      {!data ? (
        timeline.error ? null : (
          <Loading label="Loading alerting…" lines={2} />
        )
      ) : data.deliveries.length === 0 && data.escalations.length === 0 ? (
        <Empty title="No channel was alerted">
          <p>
            Alerts go to the channels of the matching routes; see <a href="/alerting/routes">alert routing</a>.
          </p>
        </Empty>
      ) : (
        <>
          {data.escalations.length ? (
            <ul class="feed" aria-label="Escalations">
              {data.escalations.map((escalation) => (
                <li key={`${escalation.routeId}-${escalation.round}`}>
                  <span class="feed-message">
                    Route <strong>{escalation.routeName ?? 'deleted'}</strong>, round {escalation.round + 1}
                  </span>
                  {escalation.stoppedAt ? (
                    <span>
                      <Badge tone="neutral">stopped</Badge> <Time value={escalation.stoppedAt} />
                      {escalation.stoppedReason ? `: ${escalation.stoppedReason}` : ''}
                    </span>
                  ) : escalation.stoppedReason ? (
                    // Acknowledged: the steps stop, the reminders go on until the incident resolves.
                    <span>
                      <Badge tone="neutral">steps stopped</Badge> {escalation.stoppedReason}
                    </span>
                  ) : escalation.nextStepAt ? (
                    <span>
                      Step {escalation.nextStep + 1} due <Time value={escalation.nextStepAt} />
                    </span>
                  ) : (
                    <span class="muted">No step left</span>
                  )}
                  <span class="muted">
                    {escalation.remindersSent} reminder{escalation.remindersSent === 1 ? '' : 's'} sent
                    {escalation.nextReminderAt && !escalation.stoppedAt ? (
                      <>
                        , next <Time value={escalation.nextReminderAt} />
                      </>
                    ) : null}
                  </span>
                </li>
              ))}
            </ul>
          ) : null}
          {data.deliveries.length ? (
            <Table
              caption="Deliveries to channels"
              rows={data.deliveries}
              rowKey={(row) => row.id}
              columns={[
                { header: 'When', cell: (row) => <Time value={row.deliveredAt ?? row.dueAt ?? row.createdAt} /> },
                { header: 'Channel', cell: (row) => row.channelName },
                { header: 'Why', cell: (row) => `${row.purpose} (${row.eventType})` },
                { header: 'Status', cell: (row) => <Badge tone={TONE[row.status] ?? 'neutral'}>{row.status}</Badge> },
                { header: 'Attempts', align: 'right', secondary: true, cell: (row) => row.attempts },
                { header: 'Last error', secondary: true, cell: (row) => row.lastError ?? '—' },
              ]}
            />
          ) : null}
        </>
      )}
    </section>
  )
}
