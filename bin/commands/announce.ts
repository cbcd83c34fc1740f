import { type Credentials, credentialsPath, saveCredentials } from '@guard/shared'

/**
 * Prints where the services listen, and secrets created on this start exactly once. Secrets
 * bypass the logger on purpose: logs are shipped and kept, this terminal line is not. The console
 * comes first: it is the address a person opens, identity's and the collector's are for clients.
 */
export async function announce(
  dataDir: string,
  urls: { console?: { url: string; signInAs?: string | undefined }; identity?: string; collector?: string },
  created: Pick<Credentials, 'admin' | 'apiKey' | 'adminToken'>,
): Promise<void> {
  const lines: string[] = []
  if (urls.console) {
    const signIn = urls.console.signInAs ? ` (sign in as ${urls.console.signInAs})` : ''
    lines.push(`console: ${urls.console.url}/${signIn}`)
  }
  if (urls.identity) lines.push(`identity: ${urls.identity}`)
  if (urls.collector) lines.push(`collector: ${urls.collector}`)
  if (created.admin?.password) lines.push(`admin: ${created.admin.email} / ${created.admin.password}  (shown once)`)
  else if (created.admin) lines.push(`admin: ${created.admin.email} (password from GUARD_ADMIN_PASSWORD)`)
  if (created.apiKey) lines.push(`api key: ${created.apiKey}  (shown once)`)
  await saveCredentials(dataDir, {
    ...(urls.identity ? { identityUrl: urls.identity } : {}),
    ...(urls.collector ? { collectorUrl: urls.collector } : {}),
    ...created,
  })
  if (created.adminToken) lines.push('admin API token: saved for the `guard identity …` commands')
  if (created.admin || created.apiKey || created.adminToken)
    lines.push(`credentials saved to ${credentialsPath(dataDir)} (mode 0600)`)
  process.stdout.write(`${lines.join('\n')}\n`)
}
