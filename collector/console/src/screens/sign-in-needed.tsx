import { signIn } from '../session.ts'

/** Shown when nobody is signed in: one button to identity's sign-in page. */
export default function SignInNeeded() {
  const unconfigured = new URLSearchParams(location.search).get('signin') === 'unconfigured'
  return (
    <main id="main" class="signin">
      <div class="signin-card">
        <h1>Guard</h1>
        {unconfigured ? (
          <p role="alert">
            This collector has no identity service to sign in with. Set <code>GUARD_IDENTITY_URL</code> (
            <code>guard start</code> sets it itself) and restart it.
          </p>
        ) : (
          <p>Sign in to see your domains, services, devices and incidents.</p>
        )}
        <button type="button" class="primary" onClick={() => signIn(unconfigured ? '/' : undefined)} autofocus>
          Sign in
        </button>
      </div>
    </main>
  )
}
