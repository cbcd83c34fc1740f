import { useEffect, useMemo, useState } from 'preact/hooks'
import { ErrorBoundary, LocationProvider, Route, Router, useLocation } from 'preact-iso'
import { apiScope } from './api.ts'
import { Loading } from './components/status.tsx'
import { connectLive, useLiveStatus } from './live.ts'
import { OrgContext, type OrgState, rememberedOrganization, rememberOrganization } from './org.ts'
import { routes } from './routes.tsx'
import SignInNeeded from './screens/sign-in-needed.tsx'
import { loadSession, type Session, sessionState } from './session.ts'

function NotFound() {
  return (
    <section>
      <h1>Not found</h1>
      <p>
        This page does not exist. <a href="/">Back to the overview</a>
      </p>
    </section>
  )
}

function LiveIndicator() {
  const status = useLiveStatus()
  const label = status === 'open' ? 'Live' : status === 'connecting' ? 'Reconnecting…' : 'Offline'
  return (
    <span class={`live live-${status}`} role="status" title="Live updates from Guard">
      <span class="dot" aria-hidden="true" />
      {label}
    </span>
  )
}

/** Moves focus to the new screen's heading and names the page after it, for keyboard and screen-reader users. */
function FocusOnNavigate() {
  const { path } = useLocation()
  useEffect(() => {
    const match = routes.find((route) => route.path === path)
    document.title = match ? `${match.title} · Guard` : 'Guard'
    const main = document.getElementById('main')
    if (main && document.activeElement && document.activeElement !== document.body) main.focus({ preventScroll: true })
  }, [path])
  return null
}

function Nav({ onNavigate }: { onNavigate: () => void }) {
  const { path } = useLocation()
  return (
    <nav aria-label="Main">
      <ul>
        {routes
          .filter((route) => route.nav)
          .map((route) => {
            const active = route.path === '/' ? path === '/' : path === route.path || path.startsWith(`${route.path}/`)
            return (
              <li key={route.path}>
                <a href={route.path} aria-current={active ? 'page' : undefined} onClick={onNavigate}>
                  {route.title}
                </a>
              </li>
            )
          })}
      </ul>
    </nav>
  )
}

function Shell({ session }: { session: Session }) {
  const [currentId, setCurrentId] = useState(() => rememberedOrganization(session.organizations)?.id)
  const [menuOpen, setMenuOpen] = useState(false)
  const current =
    session.organizations.find((organization) => organization.id === currentId) ?? session.organizations[0]
  apiScope.setOrganization(current?.id)
  useEffect(() => connectLive(current?.id), [current?.id])
  const org = useMemo<OrgState | undefined>(
    () =>
      current && {
        organizations: session.organizations,
        current,
        setCurrent: (id: string) => {
          rememberOrganization(id)
          setCurrentId(id)
        },
      },
    [current, session.organizations],
  )
  if (!org) {
    return (
      <main id="main" class="main">
        <h1>No organization</h1>
        <p>Your account belongs to no organization yet. Ask an administrator to invite you.</p>
      </main>
    )
  }
  return (
    <OrgContext.Provider value={org}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <div class={`layout ${menuOpen ? 'menu-open' : ''}`}>
        <header class="topbar">
          <button
            type="button"
            class="icon menu-toggle"
            aria-expanded={menuOpen}
            aria-controls="sidebar"
            aria-label="Menu"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            ☰
          </button>
          <a class="brand" href="/">
            Guard
          </a>
          <div class="topbar-right">
            <LiveIndicator />
            {session.organizations.length > 1 ? (
              <label class="org-switcher">
                <span class="visually-hidden">Organization</span>
                <select value={org.current.id} onChange={(event) => org.setCurrent(event.currentTarget.value)}>
                  {session.organizations.map((organization) => (
                    <option key={organization.id} value={organization.id}>
                      {organization.name}
                    </option>
                  ))}
                </select>
              </label>
            ) : (
              <span class="org-name">{org.current.name}</span>
            )}
            <form method="post" action="/auth/logout" class="inline">
              <input type="hidden" name="csrf" value={session.csrfToken} />
              <button type="submit" class="link" title={session.user.email ?? session.user.name}>
                Sign out
              </button>
            </form>
          </div>
        </header>
        <aside id="sidebar" class="sidebar">
          <Nav onNavigate={() => setMenuOpen(false)} />
        </aside>
        <main id="main" class="main" tabIndex={-1}>
          <FocusOnNavigate />
          <ErrorBoundary>
            <Router key={org.current.id}>
              {[
                ...routes.map((route) => <Route key={route.path} path={route.path} component={route.component} />),
                <Route key="404" default component={NotFound} />,
              ]}
            </Router>
          </ErrorBoundary>
        </main>
      </div>
    </OrgContext.Provider>
  )
}

export function App() {
  const [session, setSession] = useState<Session | undefined | null>(null)
  const [error, setError] = useState<string | undefined>(undefined)
  useEffect(() => {
    apiScope.onSignedOut(() => {
      sessionState.set(undefined)
      setSession(undefined)
    })
    loadSession()
      .then((value) => {
        sessionState.set(value)
        setSession(value)
      })
      .catch((caught: Error) => setError(caught.message))
  }, [])
  if (error) {
    return (
      <main id="main" class="main">
        <p role="alert">{error}</p>
      </main>
    )
  }
  if (session === null) return <Loading label="Opening Guard…" />
  return <LocationProvider>{session ? <Shell session={session} /> : <SignInNeeded />}</LocationProvider>
}
