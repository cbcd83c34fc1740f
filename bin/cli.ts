import { parseArgs } from 'node:util'
import { ConfigError } from '@guard/shared/config-error'

const usage = `Usage: guard <command> [options]

Commands:
  start                      identity, collector and one probe in one process (embedded mode)
  identity                   the identity provider on its own
  identity <group> <action>  identity admin commands (users, orgs, clients, keys, catalog, changelog)
  collector                  the collector on its own (needs NATS_URL)
  probe --location CODE      a probe for one location (needs NATS_URL)
  agent [enroll|install]     the device agent; enrol this machine; install it as a systemd service
  monitor test --location CODE --url URL
                             run one check now from a probe of CODE; stores nothing
  bench [NAME]               run bench/NAME/run.ts, or every benchmark; each prints JSON
  help                       this text

Configuration comes from environment variables; see the README's configuration table.`

const commands: Record<string, (args: string[]) => Promise<void>> = {
  start: async () => (await import('./commands/start.ts')).runStart(),
  identity: async (args) =>
    args.length === 0
      ? (await import('./commands/identity.ts')).runIdentity()
      : (await import('./commands/identity-admin/index.ts')).runIdentityAdmin(args),
  collector: async () => (await import('./commands/collector.ts')).runCollector(),
  probe: async (args) => {
    const { values } = parseArgs({ args, options: { location: { type: 'string', short: 'l' } } })
    await (await import('./commands/probe.ts')).runProbe(values.location)
  },
  agent: async (args) => (await import('./commands/agent.ts')).runAgent(args),
  monitor: async (args) => {
    process.exitCode = await (await import('./commands/monitor.ts')).runMonitorCommand(args)
  },
  bench: async (args) => (await import('./commands/bench.ts')).runBench(args),
}

const [name, ...rest] = process.argv.slice(2)
const command = name ? commands[name] : undefined
if (!command) {
  process.stdout.write(`${usage}\n`)
  process.exit(name === undefined || name === 'help' || name === '--help' ? 0 : 2)
}
try {
  await command(rest)
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`)
    process.exit(78)
  }
  throw error
}
