import { formatDateTime } from '../components/time.tsx'

/** The domain detail's `registration` (the collector's registrationView). */
export interface Registration {
  domain: string
  expiresAt: string | null
  daysLeft: number | null
  registrar?: string
  checkedAt: string
  error?: { kind: string; message: string }
}

const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })
/** Below these, the expiry warns (announced at 30 days) and alarms (7 days). */
const WARN_DAYS = 30
const ALARM_DAYS = 7

const plural = (days: number) => `${days} ${Math.abs(days) === 1 ? 'day' : 'days'}`

function DaysLeft({ days }: { days: number }) {
  if (days < 0) return <span class="badge badge-down">Expired</span>
  if (days < ALARM_DAYS) return <span class="badge badge-down">{plural(days)}</span>
  if (days < WARN_DAYS) return <span class="badge badge-degraded">{plural(days)}</span>
  return <>{plural(days)}</>
}

/** The sentence under the figure: when it expires and with whom, or why that is not known. */
function describe(registration: Registration | null | undefined): string {
  if (!registration) return 'not looked up yet'
  const { expiresAt, daysLeft, registrar, error } = registration
  if (!expiresAt || daysLeft === null) return error?.message ?? 'the registry publishes no expiry'
  const when =
    daysLeft < 0 ? `Registration expired ${plural(-daysLeft)} ago` : `Registration expires in ${plural(daysLeft)}`
  const failed = error ? ` · last lookup failed: ${error.message}` : ''
  return `${when} (${day.format(new Date(expiresAt))})${registrar ? `, ${registrar}` : ''}${failed}`
}

/** When the domain's registration expires, as the collector's daily RDAP lookup read it. */
export function RegistrationCard({ registration }: { registration: Registration | null | undefined }) {
  return (
    <div class="card stat" title={registration ? `Checked ${formatDateTime(registration.checkedAt)}` : undefined}>
      <span class="stat-label">Registration{registration ? ` of ${registration.domain}` : ''}</span>
      <span class="stat-value" style={{ fontSize: '1.1rem' }}>
        {registration?.daysLeft != null ? <DaysLeft days={registration.daysLeft} /> : registration ? 'Unknown' : '—'}
      </span>
      <span class="stat-sub">{describe(registration)}</span>
    </div>
  )
}
