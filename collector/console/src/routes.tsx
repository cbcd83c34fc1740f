import type { ComponentType } from 'preact'
import { lazy } from 'preact-iso'

export interface RouteEntry {
  path: string
  title: string
  // biome-ignore lint/suspicious/noExplicitAny: screens take their own route params.
  component: ComponentType<any>
  /** Listed in the navigation. */
  nav: boolean
}

/** THE route table: one line per screen (screens are loaded on first visit). */
export const routes: RouteEntry[] = [
  { path: '/', title: 'Overview', component: lazy(() => import('./screens/overview.tsx')), nav: true },
  { path: '/domains', title: 'Domains', component: lazy(() => import('./screens/domains.tsx')), nav: true },
  {
    path: '/domains/new',
    title: 'New domain',
    component: lazy(() => import('./screens/monitor-form.tsx')),
    nav: false,
  },
  {
    path: '/domains/:id/edit',
    title: 'Edit domain',
    component: lazy(() => import('./screens/monitor-form.tsx')),
    nav: false,
  },
  { path: '/domains/:id', title: 'Domain', component: lazy(() => import('./screens/domain-detail.tsx')), nav: false },
  { path: '/services', title: 'Services', component: lazy(() => import('./screens/services.tsx')), nav: true },
  {
    path: '/services/new',
    title: 'New service',
    component: lazy(() => import('./screens/monitor-form.tsx')),
    nav: false,
  },
  {
    path: '/services/:id/edit',
    title: 'Edit service',
    component: lazy(() => import('./screens/monitor-form.tsx')),
    nav: false,
  },
  {
    path: '/services/:id',
    title: 'Service',
    component: lazy(() => import('./screens/service-detail.tsx')),
    nav: false,
  },
  { path: '/heartbeats', title: 'Heartbeats', component: lazy(() => import('./screens/heartbeats.tsx')), nav: true },
  {
    path: '/heartbeats/:id',
    title: 'Heartbeat',
    component: lazy(() => import('./screens/heartbeat-detail.tsx')),
    nav: false,
  },
  { path: '/synthetics', title: 'Synthetics', component: lazy(() => import('./screens/synthetics.tsx')), nav: true },
  {
    path: '/synthetics/:id',
    title: 'Synthetic check',
    component: lazy(() => import('./screens/synthetic-runs.tsx')),
    nav: false,
  },
  { path: '/devices', title: 'Devices', component: lazy(() => import('./screens/devices.tsx')), nav: true },
  { path: '/devices/:id', title: 'Device', component: lazy(() => import('./screens/device-detail.tsx')), nav: false },
  { path: '/incidents', title: 'Incidents', component: lazy(() => import('./screens/incidents.tsx')), nav: true },
  { path: '/groups', title: 'Groups', component: lazy(() => import('./screens/groups.tsx')), nav: true },
  { path: '/slos', title: 'SLOs', component: lazy(() => import('./screens/slos.tsx')), nav: true },
  {
    path: '/incidents/:id',
    title: 'Incident',
    component: lazy(() => import('./screens/incident-detail.tsx')),
    nav: false,
  },
  {
    path: '/status-pages',
    title: 'Status pages',
    component: lazy(() => import('./screens/status-pages.tsx')),
    nav: true,
  },
  {
    path: '/status-pages/:id',
    title: 'Status page',
    component: lazy(() => import('./screens/status-page-editor.tsx')),
    nav: false,
  },
  {
    path: '/notifications',
    title: 'Notifications',
    component: lazy(() => import('./screens/notifications.tsx')),
    nav: true,
  },
  {
    path: '/alerting',
    title: 'Alerting',
    component: lazy(() => import('./screens/alerting-channels.tsx')),
    nav: true,
  },
  {
    path: '/alerting/routes',
    title: 'Alert routing',
    component: lazy(() => import('./screens/alerting-routes.tsx')),
    nav: false,
  },
  {
    path: '/alerting/policies',
    title: 'Escalation policies',
    component: lazy(() => import('./screens/alerting-policies.tsx')),
    nav: false,
  },
  { path: '/keys', title: 'API keys', component: lazy(() => import('./screens/api-keys.tsx')), nav: true },
  {
    path: '/integrations',
    title: 'Integrations',
    component: lazy(() => import('./screens/integrations.tsx')),
    nav: true,
  },
  { path: '/toolbox', title: 'Toolbox', component: lazy(() => import('./screens/toolbox.tsx')), nav: true },
  { path: '/settings', title: 'Settings', component: lazy(() => import('./screens/settings.tsx')), nav: true },
  {
    path: '/settings/members',
    title: 'Members',
    component: lazy(() => import('./screens/settings-members.tsx')),
    nav: false,
  },
  {
    path: '/settings/profile',
    title: 'Profile',
    component: lazy(() => import('./screens/settings-profile.tsx')),
    nav: false,
  },
]
