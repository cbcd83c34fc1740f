import { createServer } from 'node:http'
import { closeServer, listenLocal } from './fixtures.ts'

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`

/**
 * A shop on 127.0.0.1 for browser checks: a login form (user `ada`, the password given) that
 * sets a session cookie, and a checkout page showing the basket's total to a logged-in user.
 * `breakCheckout()` makes the checkout render without its total, as a broken release would.
 */
export async function startShopApp(password: string) {
  let broken = false
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://shop')
    const html = (status: number, text: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'text/html', ...headers })
      response.end(text)
    }
    if (url.pathname === '/login' && request.method === 'POST') {
      let body = ''
      request.on('data', (chunk: Buffer) => (body += chunk.toString()))
      request.on('end', () => {
        const form = new URLSearchParams(body)
        if (form.get('user') === 'ada' && form.get('password') === password) {
          html(303, '', { location: '/checkout', 'set-cookie': 'session=ok; HttpOnly; Path=/' })
        } else {
          html(401, page('Login', '<p role="alert">Wrong user or password</p>'))
        }
      })
      return
    }
    if (url.pathname === '/login') {
      return html(
        200,
        page(
          'Login',
          `<h1>Sign in</h1><form method="post" action="/login">
            <label>User <input name="user"></label>
            <label>Password <input name="password" type="password"></label>
            <button type="submit">Sign in</button></form>`,
        ),
      )
    }
    if (url.pathname === '/checkout') {
      if (!request.headers.cookie?.includes('session=ok')) return html(303, '', { location: '/login' })
      const total = broken ? '<p>Something went wrong</p>' : '<p>Total: <span id="total">42.00 EUR</span></p>'
      return html(200, page('Checkout', `<h1>Checkout</h1><ul><li>Tea 12.00</li><li>Pot 30.00</li></ul>${total}`))
    }
    html(404, page('Not found', '<h1>Not found</h1>'))
  })
  const port = await listenLocal(server)
  return {
    url: `http://127.0.0.1:${port}`,
    breakCheckout: (value = true) => {
      broken = value
    },
    close: () => closeServer(server),
  }
}
