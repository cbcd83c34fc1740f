import { collectMetrics, parseAgentEnv, sendHeartbeat } from '@guard/agent'
import { closeOnSignals, createLogger } from '@guard/shared'

/** Posts a heartbeat with this device's metrics every interval until stopped. */
export async function runAgent(env: NodeJS.ProcessEnv = process.env) {
  const config = parseAgentEnv(env)
  const log = createLogger({ name: 'agent', level: config.LOG_LEVEL })
  const device = { id: config.GUARD_DEVICE_ID, token: config.GUARD_DEVICE_TOKEN }
  let timer: NodeJS.Timeout | undefined
  const beat = async () => {
    try {
      await sendHeartbeat(config.GUARD_COLLECTOR_URL, device, await collectMetrics(), new Date())
    } catch (error) {
      log.warn({ err: error }, 'heartbeat not delivered')
    }
    timer = setTimeout(beat, config.GUARD_AGENT_INTERVAL_SECONDS * 1000)
  }
  await beat()
  closeOnSignals(log, async () => clearTimeout(timer))
}
