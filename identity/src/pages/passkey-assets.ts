import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'
import { html } from './html.ts'

const BROWSER_LIBRARY_PATH = '/assets/simplewebauthn-browser.js'
const PASSKEYS_SCRIPT_PATH = '/assets/passkeys.js'
/** The pages that offer passkeys load these, from identity itself (the policy allows 'self' only). */
export const PASSKEY_SCRIPTS = [BROWSER_LIBRARY_PATH, PASSKEYS_SCRIPT_PATH] as const

// The library's UMD bundle defines window.SimpleWebAuthnBrowser: no bundler needed for one file.
// The package's exports map hides dist/, so the bundle is found beside its CommonJS entry.
const browserLibrary = readFileSync(
  join(dirname(createRequire(import.meta.url).resolve('@simplewebauthn/browser')), '../dist/bundle/index.umd.min.js'),
  'utf8',
)
const passkeysScript = readFileSync(fileURLToPath(new URL('./passkeys.js', import.meta.url)), 'utf8')

/** A button passkeys.js wires up: sign in (or confirm) with a passkey, then go to `returnTo`. */
export function passkeyButton(input: {
  csrf: string
  mode: 'passwordless' | 'second-factor'
  returnTo: string
  label: string
}) {
  return html`<p class="error" role="alert" id="passkey-error" hidden></p>
<button type="button" class="secondary" data-passkey="${input.mode}" data-csrf="${input.csrf}" data-return-to="${input.returnTo}">${input.label}</button>`
}

/** The sign-in page's passkey section: a passkey alone signs in, no e-mail or password typed. */
export const passkeySignIn = (input: { csrf: string; returnTo: string }) =>
  html`<h2>Or</h2>${passkeyButton({ ...input, mode: 'passwordless', label: 'Use a passkey' })}`

export function passkeyAssets(app: GuardFastify): void {
  const serve = (path: string, body: string, summary: string) =>
    app.get(
      path,
      {
        schema: {
          summary,
          tags: ['pages'],
          response: { 200: { description: 'JavaScript', content: { 'text/javascript': { schema: z.string() } } } },
        },
      },
      async (_request, reply) =>
        reply
          .type('text/javascript; charset=utf-8')
          .header('Cache-Control', 'public, max-age=3600')
          .header('X-Content-Type-Options', 'nosniff')
          .send(body),
    )
  serve(BROWSER_LIBRARY_PATH, browserLibrary, '@simplewebauthn/browser (the WebAuthn calls of the passkey pages)')
  serve(PASSKEYS_SCRIPT_PATH, passkeysScript, 'The passkey buttons of the sign-in and account security pages')
}
