import type { PageText } from '../i18n/page-text.ts'
import { escapeHtml, htmlStart } from '../render-html.ts'

export type GateKind = 'password' | 'members' | 'not-member'

/**
 * The page a visitor of a private page sees instead of it: the password form, or the way to sign
 * in through Guard. It says nothing of the page but that it is private; no script, one form.
 */
export function renderAccessGate(options: {
  kind: GateKind
  assetBase: string
  /** Where the form posts or the sign-in link goes (the page's own paths, custom host or not). */
  action: string
  /** The page's language. */
  text: PageText
  error?: 'gate.throttled' | 'gate.wrongPassword' | undefined
}): string {
  const { text } = options
  const error = options.error
    ? `<p class="gate-error" role="alert" id="gate-error">${text.html(options.error)}</p>`
    : ''
  const body =
    options.kind === 'password'
      ? `<p>${text.html('gate.password')}</p>
${error}
<form method="post" action="${escapeHtml(options.action)}">
<label for="password">${text.html('gate.passwordLabel')}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${options.error ? ' aria-invalid="true" aria-describedby="gate-error"' : ''}>
<button type="submit">${text.html('gate.submit')}</button>
</form>`
      : options.kind === 'members'
        ? `<p>${text.html('gate.members')}</p>
<p><a href="${escapeHtml(options.action)}">${text.html('gate.signIn')}</a></p>`
        : `<p>${text.html('gate.notMember')}</p>`
  return `<!doctype html>
${htmlStart(text, null)}
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<title>${text.html('gate.title')}</title>
<link rel="stylesheet" href="${escapeHtml(options.assetBase)}/status-page.css">
</head>
<body>
<main class="gate">
<h1>${text.html('gate.title')}</h1>
${body}
</main>
</body>
</html>
`
}
