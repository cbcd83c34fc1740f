// The passkey buttons of identity's pages, on top of @simplewebauthn/browser (window.SimpleWebAuthnBrowser).
;(() => {
  const webauthn = window.SimpleWebAuthnBrowser

  async function post(url, body) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify(body),
    })
    const data = await response.json().catch(() => ({}))
    if (!response.ok) throw new Error(data.detail || data.title || `refused (${response.status})`)
    return data
  }

  function showError(error) {
    const box = document.getElementById('passkey-error')
    if (!box) return
    box.textContent = error instanceof Error ? error.message : String(error)
    box.hidden = false
  }

  async function signIn(button, autofill) {
    const mode = button.dataset.passkey
    const csrf = button.dataset.csrf
    const optionsJSON = await post('/sign-in/passkey/options', { csrf, mode })
    const response = await webauthn.startAuthentication({ optionsJSON, useBrowserAutofill: autofill })
    const done = await post('/sign-in/passkey/verify', { csrf, mode, return_to: button.dataset.returnTo, response })
    window.location.assign(done.redirect)
  }

  for (const button of document.querySelectorAll('[data-passkey]')) {
    button.addEventListener('click', () => {
      webauthn.WebAuthnAbortService.cancelCeremony()
      signIn(button, false).catch(showError)
    })
  }

  // Conditional UI: the browser offers the user's passkeys in the e-mail field's autofill.
  const passwordless = document.querySelector('[data-passkey="passwordless"]')
  if (passwordless && document.querySelector('input[autocomplete$="webauthn"]')) {
    webauthn
      .browserSupportsWebAuthnAutofill()
      .then((supported) => (supported ? signIn(passwordless, true) : undefined))
      .catch(() => undefined)
  }

  const register = document.querySelector('[data-passkey-register]')
  register?.addEventListener('click', async () => {
    try {
      const csrf = register.dataset.csrf
      const name = document.getElementById('passkey-name')?.value || 'Passkey'
      const optionsJSON = await post('/account/security/passkeys/options', { csrf })
      const response = await webauthn.startRegistration({ optionsJSON })
      const done = await post('/account/security/passkeys/verify', { csrf, name, response })
      window.location.assign(done.redirect)
    } catch (error) {
      showError(error)
    }
  })
})()
