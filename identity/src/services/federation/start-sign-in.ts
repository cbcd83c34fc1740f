import * as client from 'openid-client'
import { discoverProvider } from './discover.ts'
import { type FederationProvider, federationCallbackUrl } from './provider.ts'

/** What the browser's state cookie keeps between leaving for the upstream and coming back. */
export interface FederationState {
  providerId: string
  state: string
  nonce: string
  verifier: string
  returnTo: string
}

/** The upstream's authorization URL (code flow, PKCE S256, state and nonce) and the state to remember. */
export async function startFederatedSignIn(input: {
  provider: FederationProvider
  issuer: string
  secretKey: Buffer
  allowPrivate: boolean
  returnTo: string
  loginHint?: string | undefined
}): Promise<{ url: URL; state: FederationState }> {
  const config = await discoverProvider(input.provider, input)
  const verifier = client.randomPKCECodeVerifier()
  const state = client.randomState()
  const nonce = client.randomNonce()
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: federationCallbackUrl(input.issuer),
    scope: input.provider.scopes.join(' '),
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...(input.loginHint ? { login_hint: input.loginHint } : {}),
  })
  return { url, state: { providerId: input.provider.id, state, nonce, verifier, returnTo: input.returnTo } }
}
