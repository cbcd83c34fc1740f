import * as client from 'openid-client'
import { discoverProvider } from './discover.ts'
import type { FederationProvider } from './provider.ts'
import { type FederatedClaims, federatedClaims } from './resolve-user.ts'
import type { FederationState } from './start-sign-in.ts'

/**
 * Redeems the upstream's code: state, PKCE verifier and nonce must match what the browser left
 * with, the ID token must be valid (signature, issuer, audience, expiry), then userinfo is read
 * for the same subject. Returns the ID token's claims completed by userinfo's.
 */
export async function completeFederatedSignIn(input: {
  provider: FederationProvider
  callbackUrl: URL
  state: FederationState
  secretKey: Buffer
  allowPrivate: boolean
}): Promise<FederatedClaims> {
  const config = await discoverProvider(input.provider, input)
  const tokens = await client.authorizationCodeGrant(config, input.callbackUrl, {
    pkceCodeVerifier: input.state.verifier,
    expectedState: input.state.state,
    expectedNonce: input.state.nonce,
    idTokenExpected: true,
  })
  const idClaims = tokens.claims()
  if (!idClaims) throw new Error('the upstream returned no ID token')
  const userinfo = config.serverMetadata().userinfo_endpoint
    ? await client.fetchUserInfo(config, tokens.access_token, idClaims.sub)
    : {}
  // The ID token is what was signed for this client; userinfo only fills what it lacks.
  return federatedClaims.parse({ ...userinfo, ...idClaims })
}
