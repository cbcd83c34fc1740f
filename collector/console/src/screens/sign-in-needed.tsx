import { signIn } from '../session.ts'

/** Shown when nobody is signed in: one button to identity's sign-in page. */
export default function SignInNeeded() {
  return (
    <main id="main" class="signin">
      <div class="signin-card">
        <h1>Guard</h1>
        <p>Sign in to see your domains, services, devices and incidents.</p>
        <button type="button" class="primary" onClick={() => signIn()} autofocus>
          Sign in
        </button>
      </div>
    </main>
  )
}
