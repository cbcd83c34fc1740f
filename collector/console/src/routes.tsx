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
]
