import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import type { Organization } from './session.ts'

export interface OrgState {
  organizations: Organization[]
  current: Organization
  setCurrent: (id: string) => void
}

export const OrgContext = createContext<OrgState | undefined>(undefined)

const STORAGE_KEY = 'guard.organization'

/** The organization the console is scoped to; screens pass `current.id` where the API takes one. */
export function useOrg(): OrgState {
  const state = useContext(OrgContext)
  if (!state) throw new Error('useOrg is used outside the signed-in shell')
  return state
}

/** The organization chosen last in this browser, if the user still belongs to it. */
export function rememberedOrganization(organizations: Organization[]): Organization | undefined {
  let saved: string | null = null
  try {
    saved = localStorage.getItem(STORAGE_KEY)
  } catch {
    // Storage disabled: start from the first organization.
  }
  return organizations.find((organization) => organization.id === saved) ?? organizations[0]
}

export function rememberOrganization(id: string): void {
  try {
    localStorage.setItem(STORAGE_KEY, id)
  } catch {
    // Storage disabled: the choice lasts for this tab only.
  }
}
