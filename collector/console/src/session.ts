/** What `GET /auth/session` answers: who is signed in, their organizations and the CSRF token. */
export interface Organization {
  id: string
  name: string
  slug?: string
  role?: string
}

export interface Session {
  signedIn: true
  user: { id: string; email?: string; name?: string }
  organizations: Organization[]
  csrfToken: string
}

let current: Session | undefined

export const sessionState = {
  get: (): Session | undefined => current,
  set: (session: Session | undefined) => {
    current = session
  },
}

/** Reads the BFF session; undefined when nobody is signed in. */
export async function loadSession(): Promise<Session | undefined> {
  const response = await fetch('/auth/session', { credentials: 'same-origin', headers: { accept: 'application/json' } })
  if (response.status === 401) return undefined
  if (!response.ok) throw new Error(`The console could not read its session (HTTP ${response.status})`)
  const body = (await response.json()) as Session | { signedIn: false }
  return body.signedIn ? body : undefined
}

/** Starts the sign-in through identity, coming back to `returnTo` afterwards. */
export function signIn(returnTo = location.pathname + location.search): void {
  location.assign(`/auth/login?returnTo=${encodeURIComponent(returnTo)}`)
}
