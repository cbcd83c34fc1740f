import type { ComponentChildren } from 'preact'
import { useLocation } from 'preact-iso'
import { api, type Envelope } from '../api.ts'
import { useResource } from '../components/use-api.ts'
import './settings.css'
import './alerting.css'

/** The answers of the alerting API as these screens read them (the collector's zod schemas are the truth). */
export interface QuietHours {
  timeZone: string
  from: string
  to: string
  days?: number[]
}
export interface Channel {
  id: string
  name: string
  provider: string
  config: Record<string, unknown>
  secretsSet: string[]
  generatedSecrets?: Record<string, string>
  enabled: boolean
  quietHours: QuietHours | null
  state: 'ok' | 'failing'
  stateReason: string | null
  lastDeliveryAt: string | null
  lastDeliveryStatus: string | null
}
export interface Provider {
  id: string
  label: string
  description: string
  configSchema: JsonSchema
  secretFields: string[]
}
/** The part of JSON Schema that providers' settings use (z.toJSONSchema of a flat object). */
export interface JsonSchema {
  type?: string
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  additionalProperties?: JsonSchema | boolean
  enum?: Array<string | number>
  default?: unknown
  description?: string
  format?: string
  minimum?: number
  maximum?: number
}
export interface Selector {
  monitorIds?: string[]
  tags?: string[]
  monitorKinds?: string[]
  severities?: string[]
  causes?: string[]
  events?: string[]
}
export interface RouteView {
  id: string
  name: string
  position: number
  isDefault: boolean
  selector: Selector
  channelIds: string[]
  escalationPolicyId: string | null
  reminderMinutes: number | null
  continueMatching: boolean
  enabled: boolean
}
export interface Step {
  afterMinutes: number
  channelIds: string[]
}
export interface Policy {
  id: string
  name: string
  steps: Step[]
  repeat: number
  repeatAfterMinutes: number
}

export const useChannels = (organizationId: string) =>
  useResource(
    () => api.get<Envelope<Channel[]>>('/api/notification-channels', { organizationId }).then((b) => b.data),
    [organizationId],
  )
export const usePolicies = (organizationId: string) =>
  useResource(
    () => api.get<Envelope<Policy[]>>('/api/escalation-policies', { organizationId }).then((b) => b.data),
    [organizationId],
  )

/** Channel names for ids, in the order given; a channel deleted since reads as such. */
export const channelNames = (ids: string[], channels: Channel[] | undefined) =>
  ids.map((id) => channels?.find((channel) => channel.id === id)?.name ?? 'a deleted channel').join(', ')

/** "0.5" minutes reads as "30 s": drills use fractions, people think in the larger unit. */
export function minutes(value: number): string {
  if (value < 1) return `${Math.round(value * 60)} s`
  if (value >= 60 && value % 60 === 0) return `${value / 60} h`
  return `${value} min`
}

const PAGES = [
  ['/alerting', 'Channels'],
  ['/alerting/routes', 'Routing'],
  ['/alerting/policies', 'Escalation policies'],
] as const

/** The alerting section's own pages under one heading, as the settings have theirs. */
export function AlertingHeader({ actions }: { actions?: ComponentChildren }) {
  const { path } = useLocation()
  return (
    <>
      <header class="page-head">
        <h1>Alerting</h1>
        {actions ? <div class="actions">{actions}</div> : null}
      </header>
      <nav class="settings-nav" aria-label="Alerting">
        <ul>
          {PAGES.map(([href, label]) => (
            <li key={href}>
              <a href={href} aria-current={path === href ? 'page' : undefined}>
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </>
  )
}

/** A set of checkboxes under one legend: the multi-select of these screens (keyboard and reader friendly). */
export function CheckGroup({
  legend,
  options,
  value,
  onChange,
  hint,
}: {
  legend: string
  options: ReadonlyArray<readonly [string, string]>
  value: string[]
  onChange: (next: string[]) => void
  hint?: string
}) {
  return (
    <fieldset class="plain">
      <legend>{legend}</legend>
      {hint ? <small class="hint">{hint}</small> : null}
      <div class="checks">
        {options.map(([id, text]) => (
          <label class="check" key={id}>
            <input
              type="checkbox"
              checked={value.includes(id)}
              onChange={(e) => onChange(e.currentTarget.checked ? [...value, id] : value.filter((item) => item !== id))}
            />
            {text}
          </label>
        ))}
      </div>
    </fieldset>
  )
}
