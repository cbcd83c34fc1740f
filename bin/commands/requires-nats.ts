import { ConfigError } from '@guard/shared'

/** A process on its own reaches the others only through NATS; `guard start` needs none. */
export function requireNats(processName: string, natsUrl: string | undefined): void {
  if (!natsUrl) {
    throw new ConfigError(
      `${processName}: invalid configuration\n  NATS_URL: required when ${processName} runs on its own (use 'guard start' for one process)`,
    )
  }
}
