import { escapeHtml } from '../render-html.ts'

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
  error?: string | undefined
}): string {
  const error = options.error
    ? `<p class="gate-error" role="alert" id="gate-error">${escapeHtml(options.error)}</p>`
    : ''
  const body =
    options.kind === 'password'
      ? `<p>This status page is private. Enter its password to see it.</p>
${error}
<form method="post" action="${escapeHtml(options.action)}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${options.error ? ' aria-invalid="true" aria-describedby="gate-error"' : ''}>
<button type="submit">View the page</button>
</form>`
      : options.kind === 'members'
        ? `<p>This status page is visible to members of its organization.</p>
<p><a href="${escapeHtml(options.action)}">Sign in with Guard</a></p>`
        : `<p>You are signed in, but not as a member of the organization this status page belongs to.</p>`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<title>Private status page</title>
<link rel="stylesheet" href="${escapeHtml(options.assetBase)}/status-page.css">
</head>
<body>
<main class="gate">
<h1>Private status page</h1>
${body}
</main>
</body>
</html>
`
}
