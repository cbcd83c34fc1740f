/**
 * OAuth scopes over the monitoring data, shared by identity (which grants them) and the collector
 * (which turns them into permissions, within the member's role): `read` reads, `write` changes.
 */
export const DATA_SCOPES = ['read', 'write'] as const
export type DataScope = (typeof DATA_SCOPES)[number]

/**
 * Lets a user's token create and revoke API keys, credentials that outlive the token. Only
 * first-party clients (the web console, an operator-registered CLI) may be granted it, so no
 * third-party application can turn a user's token into a permanent key.
 */
export const API_KEYS_SCOPE = 'api-keys:write'
