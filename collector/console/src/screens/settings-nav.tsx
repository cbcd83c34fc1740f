import { useLocation } from 'preact-iso'
import './settings.css'

const PAGES = [
  ['/settings', 'Organization'],
  ['/settings/members', 'Members'],
  ['/settings/profile', 'Profile'],
] as const

/** The settings' own pages, under one heading; the main navigation has a single "Settings" entry. */
export function SettingsHeader() {
  const { path } = useLocation()
  return (
    <>
      <header class="page-head">
        <h1>Settings</h1>
      </header>
      <nav class="settings-nav" aria-label="Settings">
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

export type MembershipRole = 'owner' | 'admin' | 'member' | 'viewer'

export const ROLE_LABEL: Record<MembershipRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
  viewer: 'Viewer',
}

/** What `GET /api/organization` answers: the organization as identity has it, and the caller's role now. */
export interface OrganizationSettings {
  id: string
  slug: string
  name: string
  createdAt: string
  members: number
  plan: string | null
  myRole: MembershipRole | null
}
