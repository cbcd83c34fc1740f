import { decryptSecret } from '@guard/shared'
import * as client from 'openid-client'
import { guardedFetch } from './guarded-fetch.ts'
import type { FederationProvider } from './provider.ts'

/**
 * openid-client's configuration of one provider, from its discovery document, talking through
 * the SSRF-guarded fetch. Plain http:// is accepted only with private targets allowed: a
 * provider on the operator's own network (or a test) may lack TLS, a public one may not.
 */
export async function discoverProvider(
  provider: FederationProvider,
  options: { secretKey: Buffer; allowPrivate: boolean },
): Promise<client.Configuration> {
  const fetch = guardedFetch(options.allowPrivate)
  const config = await client.discovery(
    new URL(provider.issuer),
    provider.clientId,
    undefined,
    client.ClientSecretPost(decryptSecret(options.secretKey, provider.clientSecretEncrypted)),
    {
      [client.customFetch]: fetch as client.CustomFetch,
      ...(options.allowPrivate ? { execute: [client.allowInsecureRequests] } : {}),
      timeout: 10,
    },
  )
  return config
}
