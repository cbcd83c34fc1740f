import { truncateText } from '@guard/shared'
import { defaultConfigPath, writeAgentConfig } from './config.ts'

export interface EnrollOptions {
  collectorUrl: string
  apiKey: string
  name: string
  tags?: string[]
  configPath?: string
  intervalSeconds?: number
}

/** The device id and token of POST /api/devices' answer, or an error saying what was missing. */
function enrolledDevice(text: string): { id: string; token: string } {
  const data = (JSON.parse(text) as { data?: { id?: unknown; token?: unknown } }).data
  if (typeof data?.id !== 'string' || typeof data.token !== 'string') {
    throw new Error(`the collector's answer carries no device id and token: ${truncateText(text, 200)}`)
  }
  return { id: data.id, token: data.token }
}

/**
 * Enrols this machine as a device (POST /api/devices with an API key holding devices:write) and
 * writes the agent's config file, mode 0600, with the device id and token. The API key is not kept.
 */
export async function enrollDevice(options: EnrollOptions): Promise<{ deviceId: string; configPath: string }> {
  const collectorUrl = options.collectorUrl.replace(/\/+$/, '')
  const response = await fetch(new URL('/api/devices', collectorUrl), {
    method: 'POST',
    headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: options.name, ...(options.tags ? { tags: options.tags } : {}) }),
    signal: AbortSignal.timeout(30_000),
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`enrolment refused (${response.status}): ${truncateText(text, 300)}`)
  const data = enrolledDevice(text)
  const configPath = options.configPath ?? defaultConfigPath()
  await writeAgentConfig(configPath, {
    collectorUrl,
    deviceId: data.id,
    token: data.token,
    ...(options.intervalSeconds ? { intervalSeconds: options.intervalSeconds } : {}),
  })
  return { deviceId: data.id, configPath }
}
