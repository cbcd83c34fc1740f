import { LOGO_SVG, PRODUCT_NAME } from '@guard/shared/brand'
import { useEffect, useMemo, useState } from 'preact/hooks'
import { ErrorBoundary, LocationProvider, Route, Router, useLocation } from 'preact-iso'
import { api, apiScope, type Envelope } from './api.ts'
import { Loading } from './components/status.tsx'
import { connectLive, useLive, useLiveStatus } from './live.ts'
import { OrgContext, type OrgState, rememberedOrganization, rememberOrganization } from './org.ts'
import { routes } from './routes.tsx'
import SignInNeeded from './screens/sign-in-needed.tsx'
import { type Session, sessionState } from './session.ts'

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

/**
 * Unread in-app notifications, counted from the feed and raised live by `notification.created`.
 * Reading the feed also enrols the user as a recipient of the organization's notifications.
 */
function NotificationBell({ organizationId }: { organizationId: string }) {
  const [unread, setUnread] = useState<number | undefined>(undefined)
  const [latest, setLatest] = useState('')
  const load = () =>
    api
      .get<Envelope<Array<{ isRead: boolean }>>>('/api/notifications', { limit: 50 })
      .then((body) => setUnread(body.data.filter((item) => !item.isRead).length))
      .catch(() => setUnread(undefined))
  useEffect(() => {
    // After the screen's own reads: the count can wait a moment, the first screen should not.
    const timer = setTimeout(() => void load(), 800)
    return () => clearTimeout(timer)
  }, [organizationId])
  useLive(['notification.created'], (event) => {
    if (typeof event.data.message === 'string') setLatest(event.data.message)
    void load()
  })
  const label = unread === undefined ? 'Notifications' : `Notifications, ${unread} unread`
  return (
    <>
      <a class="bell" href="/notifications" title={label}>
        <svg
          aria-hidden="true"
          width="18"
          height="18"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          stroke-width="2"
        >
          <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
          <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
        </svg>
        <span class="visually-hidden">{label}</span>
        <span class="bell-count" aria-hidden="true" data-unread={unread ?? 0}>
          {unread ? (unread > 99 ? '99+' : unread) : ''}
        </span>
      </a>
      <span class="visually-hidden" role="status" aria-live="polite">
        {latest}
      </span>
    </>
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
            <span dangerouslySetInnerHTML={{ __html: LOGO_SVG }} />
            {PRODUCT_NAME}
          </a>
          <div class="topbar-right">
            <LiveIndicator />
            <NotificationBell organizationId={org.current.id} />
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

export function App({ session: initial }: { session: Promise<Session | undefined> }) {
  const [session, setSession] = useState<Session | undefined | null>(null)
  const [error, setError] = useState<string | undefined>(undefined)
  useEffect(() => {
    apiScope.onSignedOut(() => {
      sessionState.set(undefined)
      setSession(undefined)
    })
    initial
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
