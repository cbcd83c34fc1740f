import { createHash, createSign, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto'
import type { RelationalStore } from '@guard/shared'
import { createLogger, listeningUrl, openMigratedTestRelationalStore } from '@guard/shared'
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js'
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server'
import { isoCBOR } from '@simplewebauthn/server/helpers'
import { buildIdentityApp } from '../app.ts'
import { IDENTITY_MIGRATIONS } from '../server.ts'
import { type CreatedClient, createClient, type NewClient } from '../services/clients/create.ts'
import { addMember } from '../services/organizations/add-member.ts'
import { createOrganization } from '../services/organizations/create.ts'
import { createUser } from '../services/users/create.ts'
import type { OAuthContext } from './context.ts'
import { prepareOAuth } from './setup.ts'

export const TEST_PASSWORD = 'correct horse battery staple'
/** The GUARD_SECRET_KEY of a test identity: a collector given it may call the internal routes. */
export const TEST_SECRET_KEY = 'test-secret-key-test-secret-key-test'

export interface TestIdentity {
  url: string
  sql: RelationalStore
  ctx: OAuthContext
  user: { id: string; email: string }
  organization: { id: string; slug: string }
  client(input: Partial<NewClient>): Promise<CreatedClient>
  close(): Promise<void>
}

/**
 * A listening identity on 127.0.0.1 over an in-memory PGlite, with one user in one organization.
 * Every test request comes from 127.0.0.1, so the registration limit is raised unless given.
 * `internal` mounts the service-to-service routes a collector calls with TEST_SECRET_KEY.
 */
export async function startTestIdentity(
  options: { registrationLimit?: number; mcpResources?: string[]; internal?: boolean } = {},
): Promise<TestIdentity> {
  const sql = await openMigratedTestRelationalStore([IDENTITY_MIGRATIONS])
  const log = createLogger({ name: 'identity-test', level: 'silent' })
  const ctx = await prepareOAuth({
    sql,
    log,
    env: {
      GUARD_SECRET_KEY: TEST_SECRET_KEY,
      GUARD_DATA_DIR: '/nonexistent',
      GUARD_REGISTRATION_LIMIT: options.registrationLimit ?? 1000,
      GUARD_MCP_RESOURCES: options.mcpResources ?? [],
      // Upstream sign-in providers of tests are other identities on 127.0.0.1.
      GUARD_ALLOW_PRIVATE_TARGETS: true,
    },
    issuer: '',
  })
  const app = await buildIdentityApp({
    log,
    oauth: ctx,
    ...(options.internal ? { internal: { sql, secretKey: TEST_SECRET_KEY } } : {}),
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const url = listeningUrl(app)
  ctx.issuer = url
  const organization = await createOrganization(sql, { name: 'Acme', slug: 'acme' })
  const user = await createUser(sql, { email: 'ann@example.org', password: TEST_PASSWORD, name: 'Ann', role: 'admin' })
  await addMember(sql, { organizationSlug: 'acme', userId: user.id, role: 'owner' })
  return {
    url,
    sql,
    ctx,
    user,
    organization,
    client: (input) =>
      createClient(sql, {
        name: 'Test app',
        redirectUris: ['http://127.0.0.1:9/callback'],
        isPublic: false,
        requirePkce: true,
        firstParty: false,
        ...input,
      }),
    async close() {
      await app.close()
      await sql.close()
    },
  }
}

/** A browser without a browser: cookies kept per host, redirects followed by hand. */
export class HttpBrowser {
  private readonly cookies = new Map<string, string>()

  async request(
    url: string,
    init: { method?: string; form?: Record<string, string>; json?: unknown } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = {}
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    if (cookie) headers.cookie = cookie
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded'
    if (init.json !== undefined) headers['content-type'] = 'application/json'
    const body = init.form
      ? new URLSearchParams(init.form).toString()
      : init.json !== undefined
        ? JSON.stringify(init.json)
        : undefined
    const response = await fetch(url, {
      method: init.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      redirect: 'manual',
      ...(body === undefined ? {} : { body }),
    })
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const [name, ...value] = (pair ?? '').split('=')
      if (name) this.cookies.set(name.trim(), value.join('='))
    }
    return response
  }

  /**
   * Follows redirects from `url` through the sign-in and consent pages, filling them in, until
   * the provider redirects outside itself; returns that final address.
   */
  async authorize(
    url: string,
    credentials: { email: string; password: string },
    decision: 'allow' | 'deny' = 'allow',
  ): Promise<URL> {
    let next = new URL(url)
    const origin = next.origin
    for (let step = 0; step < 12; step++) {
      if (next.origin !== origin) return next
      let response = await this.request(next.href)
      if (response.status === 200 && next.pathname === '/sign-in') {
        const page = await response.text()
        response = await this.request(new URL('/sign-in', origin).href, {
          form: {
            csrf: hiddenField(page, 'csrf'),
            return_to: hiddenField(page, 'return_to'),
            email: credentials.email,
            password: credentials.password,
          },
        })
      } else if (response.status === 200 && next.pathname === '/consent') {
        const page = await response.text()
        response = await this.request(new URL('/consent', origin).href, {
          form: { csrf: hiddenField(page, 'csrf'), request: hiddenField(page, 'request'), decision },
        })
      }
      const location = response.headers.get('location')
      if (!location) throw new Error(`no redirect from ${next.href}: ${response.status} ${await response.text()}`)
      next = new URL(location, next)
    }
    throw new Error('too many redirects')
  }
}

const decodeEntities = (value: string) =>
  value
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&')

export function hiddenField(page: string, name: string): string {
  const match = page.match(new RegExp(`name="${name}" value="([^"]*)"`))
  if (match?.[1] === undefined) throw new Error(`no ${name} field in page`)
  return decodeEntities(match[1])
}

/** A PKCE verifier and its S256 challenge. */
export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

export function authorizeUrl(identity: TestIdentity, params: Record<string, string>): string {
  return `${identity.url}/api/oauth/authorize?${new URLSearchParams({ response_type: 'code', ...params })}`
}

export async function postForm(url: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  })
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  }
}

export interface IssuedTokens {
  access_token: string
  refresh_token: string
  id_token?: string
  scope: string
}

/**
 * A fresh browser signs in through the pages as the test user and exchanges the code (with the
 * client's secret when it has one); returns the browser, still signed in, with its tokens.
 */
export async function signInThroughPages(
  identity: TestIdentity,
  client: CreatedClient,
  options: { scope?: string; redirectUri?: string; password?: string } = {},
): Promise<{ browser: HttpBrowser; tokens: IssuedTokens }> {
  const redirectUri = options.redirectUri ?? client.redirect_uris[0] ?? ''
  const browser = new HttpBrowser()
  const pkce = pkcePair()
  const callback = await browser.authorize(
    authorizeUrl(identity, {
      client_id: client.client_id,
      redirect_uri: redirectUri,
      ...(options.scope ? { scope: options.scope } : {}),
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    }),
    { email: identity.user.email, password: options.password ?? TEST_PASSWORD },
  )
  const { status, body } = await postForm(`${identity.url}/api/oauth/token`, {
    grant_type: 'authorization_code',
    code: callback.searchParams.get('code') ?? '',
    redirect_uri: redirectUri,
    code_verifier: pkce.verifier,
    client_id: client.client_id,
    ...(client.client_secret ? { client_secret: client.client_secret } : {}),
  })
  if (status !== 200) throw new Error(`token exchange failed: ${JSON.stringify(body)}`)
  return { browser, tokens: body as unknown as IssuedTokens }
}

/** Signs in through the pages with a fresh browser and exchanges the code (client_secret_post). */
export async function obtainTokens(
  identity: TestIdentity,
  client: CreatedClient,
  options: { scope?: string; redirectUri?: string } = {},
): Promise<IssuedTokens> {
  const { tokens } = await signInThroughPages(identity, client, { ...options, scope: options.scope ?? 'openid email' })
  return tokens
}

/** prompt=none from `browser`: where the provider sends it back (a code only while its session lives). */
export async function silentAuthorize(
  identity: TestIdentity,
  browser: HttpBrowser,
  client: CreatedClient,
): Promise<URL> {
  const pkce = pkcePair()
  const response = await browser.request(
    authorizeUrl(identity, {
      client_id: client.client_id,
      redirect_uri: client.redirect_uris[0] ?? '',
      prompt: 'none',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    }),
  )
  return new URL(response.headers.get('location') ?? '')
}

/** Opens the sign-in page that the authorize endpoint sends `browser` to for `client`. */
export async function openSignInPage(
  identity: TestIdentity,
  browser: HttpBrowser,
  client: CreatedClient,
  params: Record<string, string> = {},
): Promise<{ response: Response; page: string }> {
  const pkce = pkcePair()
  const redirect = await browser.request(
    authorizeUrl(identity, {
      client_id: client.client_id,
      redirect_uri: client.redirect_uris[0] ?? '',
      ...params,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    }),
  )
  const response = await browser.request(new URL(redirect.headers.get('location') ?? '', identity.url).href)
  return { response, page: await response.text() }
}

/** The code flow of a public client against any running identity, signing in as `credentials`. */
export async function signInPublicClient(input: {
  identityUrl: string
  clientId: string
  redirectUri: string
  scope: string
  credentials: { email: string; password: string }
}): Promise<IssuedTokens> {
  const pkce = pkcePair()
  const url = `${input.identityUrl}/api/oauth/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id: input.clientId,
    redirect_uri: input.redirectUri,
    scope: input.scope,
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
  })}`
  const callback = await new HttpBrowser().authorize(url, input.credentials)
  const { status, body } = await postForm(`${input.identityUrl}/api/oauth/token`, {
    grant_type: 'authorization_code',
    code: callback.searchParams.get('code') ?? '',
    redirect_uri: input.redirectUri,
    code_verifier: pkce.verifier,
    client_id: input.clientId,
  })
  if (status !== 200) throw new Error(`token exchange failed: ${JSON.stringify(body)}`)
  return body as unknown as IssuedTokens
}

/**
 * What an MCP SDK client keeps between runs, in memory: the SDK calls these as its OAuth flow
 * goes. `tokens` starts it with some, e.g. an access token that no longer works.
 */
export class MemoryOAuthClient implements OAuthClientProvider {
  information: OAuthClientInformationMixed | undefined
  saved: OAuthTokens | undefined
  verifier = ''
  authorizationUrl: URL | undefined

  constructor(
    readonly redirectUrl: string,
    readonly clientMetadata: OAuthClientMetadata,
    tokens?: OAuthTokens,
  ) {
    this.saved = tokens
  }

  clientInformation() {
    return this.information
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier
  }
}

interface SoftwareCredential {
  privateKey: KeyObject
  rpId: string
  userHandle: string
  counter: number
}

/**
 * A WebAuthn authenticator in software: ES256 keys from node:crypto, real `none` attestations and
 * assertions, user presence and verification always given. `backupEligible` makes synced passkeys
 * (amr swk) rather than device-bound ones (hwk); `counter` false keeps the signature counter at 0,
 * as most platform passkeys do.
 */
export class SoftwareAuthenticator {
  readonly credentials = new Map<string, SoftwareCredential>()

  constructor(readonly options: { backupEligible?: boolean; counter?: boolean } = {}) {}

  private authData(rpId: string, counter: number, attested?: Uint8Array): Buffer {
    // UP | UV, BE | BS for a synced passkey, AT when a credential is attached.
    const flags = 0x01 | 0x04 | (this.options.backupEligible ? 0x18 : 0) | (attested ? 0x40 : 0)
    const count = Buffer.alloc(4)
    count.writeUInt32BE(counter)
    return Buffer.concat([
      createHash('sha256').update(rpId).digest(),
      Buffer.from([flags]),
      count,
      ...(attested ? [attested] : []),
    ])
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))
  }

  /** navigator.credentials.create, answered as @simplewebauthn/browser's startRegistration would. */
  create(options: PublicKeyCredentialCreationOptionsJSON, origin: string): RegistrationResponseJSON {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    const jwk = publicKey.export({ format: 'jwk' })
    const coseKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x ?? '', 'base64url')],
        [-3, Buffer.from(jwk.y ?? '', 'base64url')],
      ]),
    )
    const credentialId = randomBytes(32)
    const idLength = Buffer.alloc(2)
    idLength.writeUInt16BE(credentialId.length)
    const rpId = options.rp.id ?? new URL(origin).hostname
    const attested = Buffer.concat([Buffer.alloc(16), idLength, credentialId, Buffer.from(coseKey)])
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', this.authData(rpId, 0, attested)],
      ]),
    )
    const id = credentialId.toString('base64url')
    this.credentials.set(id, { privateKey, rpId, userHandle: options.user.id, counter: 0 })
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: this.clientData('webauthn.create', options.challenge, origin).toString('base64url'),
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    }
  }

  /** navigator.credentials.get with one of this authenticator's credentials (the first allowed, or any). */
  get(
    options: PublicKeyCredentialRequestOptionsJSON,
    origin: string,
    credentialId?: string,
  ): AuthenticationResponseJSON {
    const allowed = options.allowCredentials?.map((credential) => credential.id) ?? []
    const id =
      credentialId ?? [...this.credentials.keys()].find((key) => allowed.length === 0 || allowed.includes(key)) ?? ''
    const credential = this.credentials.get(id)
    if (!credential) throw new Error('no credential of this authenticator is allowed')
    if (this.options.counter !== false) credential.counter += 1
    const authenticatorData = this.authData(credential.rpId, credential.counter)
    const clientData = this.clientData('webauthn.get', options.challenge, origin)
    const signature = createSign('sha256')
      .update(Buffer.concat([authenticatorData, createHash('sha256').update(clientData).digest()]))
      .sign(credential.privateKey)
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: clientData.toString('base64url'),
        authenticatorData: authenticatorData.toString('base64url'),
        signature: signature.toString('base64url'),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    }
  }
}
