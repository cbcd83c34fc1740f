import { render } from 'preact'
import { App } from './app.tsx'
import { routes } from './routes.tsx'
import { loadSession } from './session.ts'
import './styles.css'

/** The screen of a path, `:name` segments matching anything: to fetch its code while the session loads. */
function routeOf(path: string) {
  const parts = path.split('/').filter(Boolean)
  return routes.find((route) => {
    const pattern = route.path.split('/').filter(Boolean)
    return pattern.length === parts.length && pattern.every((part, at) => part.startsWith(':') || part === parts[at])
  })
}

// The session, the screen's code and the first paint go in parallel, not one after the other.
const session = loadSession()
const screen = routeOf(location.pathname)?.component as { preload?: () => Promise<unknown> } | undefined
void screen?.preload?.().catch(() => undefined)

render(<App session={session} />, document.getElementById('app')!)
