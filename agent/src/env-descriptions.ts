import type { AgentEnv } from './env.ts'

/**
 * What each of the agent's variables means, for docs/configuration.md (bin/docs-config.ts). Kept
 * apart from env.ts, which is checked by hand so the bundled agent carries no zod, and typed by
 * AgentEnv so a variable added there does not compile until it is described here.
 */
export const agentEnvDescriptions: Record<keyof AgentEnv, { default?: string; description: string }> = {
  LOG_LEVEL: {
    default: 'info',
    description: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`; logs are JSON, pretty on a terminal',
  },
  GUARD_AGENT_CONFIG: {
    description:
      'the JSON config file `guard agent enroll` writes; env and flags override its values; unset: `/etc/guard/agent.json` (root), `~/.config/guard/agent.json`',
  },
  GUARD_COLLECTOR_URL: {
    description: 'the collector the agent reports to (`--collector`); unset: from the config file',
  },
  GUARD_DEVICE_ID: { description: 'the device the agent reports as (`--device`); unset: from the config file' },
  GUARD_DEVICE_TOKEN: {
    description: "the device's token, sent as Bearer to `POST /agent` (`--token`); unset: from the config file",
  },
  GUARD_AGENT_INTERVAL_SECONDS: { default: '30', description: 'seconds between heartbeats (`--interval`)' },
  GUARD_AGENT_INVENTORY_SECONDS: {
    default: '300',
    description: 'seconds between inventories (system info, processes, applications, connections)',
  },
  GUARD_AGENT_SPOOL_DIR: {
    description:
      'the on-disk spool of heartbeats not yet stored by the collector; unset: `$STATE_DIRECTORY`, `/var/lib/guard-agent` (root), `~/.local/state/guard-agent`',
  },
  GUARD_AGENT_SPOOL_MAX_MB: {
    default: '50',
    description: 'spool size limit; past it the oldest heartbeats are dropped and counted',
  },
  GUARD_AGENT_SPOOL_MAX_AGE_HOURS: {
    default: '24',
    description: 'heartbeats older than this are dropped from the spool (and counted) instead of replayed',
  },
}
