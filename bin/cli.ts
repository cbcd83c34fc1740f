import { parseArgs } from 'node:util'
import { ConfigError } from '@guard/shared/config-error'
import { GuardError } from '@guard/shared/errors'

const usage = `Usage: guard <command> [options]

Commands:
  start                      identity, collector and one probe in one process (embedded mode)
  identity                   the identity provider on its own
  identity <group> <action>  identity admin commands (users, orgs, clients, keys, audit, catalog, changelog)
  collector                  the collector on its own (needs NATS_URL)
  probe --location CODE      a probe for one location (needs NATS_URL)
  agent [enroll|install]     the device agent; enrol this machine; install it as a systemd service
  monitor test --location CODE --url URL
                             run one check now from a probe of CODE; stores nothing
  dead-letters list|replay|drop
                             messages the collector could never store, and what to do with them
  bench [NAME]               run bench/NAME/run.ts, or every benchmark; each prints JSON
  help                       this text

\`guard <command> --help\` describes one command. Configuration comes from environment
variables; see the README's configuration table.`

interface Command {
  help: string
  run(args: string[]): Promise<void>
}

/** Commands that take no options refuse any, so a typo never starts a second instance. */
function noOptions(name: string, args: string[]): void {
  parseArgs({ args, options: {}, strict: true, allowPositionals: false })
  if (args.length > 0) throw new UsageError(`guard ${name}: unexpected argument '${args[0]}'`)
}

class UsageError extends Error {}

const commands: Record<string, Command> = {
  start: {
    help: `Usage: guard start

Runs identity, the collector and one probe (location \`local\`) in one process, with the
in-process bus, PGlite and chDB under GUARD_DATA_DIR (default ./data) unless NATS_URL,
DATABASE_URL or CLICKHOUSE_URL name servers. Checks first that its ports are free and that
no other process holds the data directory, and changes nothing when either fails.`,
    run: async (args) => {
      noOptions('start', args)
      await (await import('./commands/start.ts')).runStart()
    },
  },
  identity: {
    help: `Usage: guard identity                      run the identity provider on its own
       guard identity <group> <action> ...   admin commands, printing JSON

Groups: users, orgs, clients, keys, audit (admin API of the running identity at
GUARD_IDENTITY_URL, or the store under the data directory's lock when none answers),
catalog, changelog. \`guard identity <group> --help\` lists a group's actions.`,
    run: async (args) =>
      args.length === 0
        ? (await import('./commands/identity.ts')).runIdentity()
        : (await import('./commands/identity-admin/index.ts')).runIdentityAdmin(args),
  },
  collector: {
    help: `Usage: guard collector

Runs the collector on its own: the monitoring API, ingest of probe results from NATS
(NATS_URL is required), PostgreSQL (DATABASE_URL) and ClickHouse (CLICKHOUSE_URL).`,
    run: async (args) => {
      noOptions('collector', args)
      await (await import('./commands/collector.ts')).runCollector()
    },
  },
  probe: {
    help: `Usage: guard probe [--location CODE]

Runs a probe for one location (default GUARD_PROBE_LOCATION, else \`local\`); needs NATS_URL.`,
    run: async (args) => {
      const { values } = parseArgs({ args, options: { location: { type: 'string', short: 'l' } }, strict: true })
      await (await import('./commands/probe.ts')).runProbe(values.location)
    },
  },
  agent: {
    help: `Usage: guard agent                 run the device agent
       guard agent enroll --collector URL --key API_KEY --name NAME [--tag T]... [--config FILE] [--interval SECONDS]
       guard agent install [--user guard-agent] [--config FILE] [--unit /etc/systemd/system/guard-agent.service]

Runs the device agent (posts this machine's metrics to the collector's /agent every interval),
enrols this machine as a device, or installs the agent as a systemd service.`,
    run: async (args) => (await import('./commands/agent.ts')).runAgent(args),
  },
  monitor: {
    help: `Usage: guard monitor test --location CODE (--url URL [--options JSON] | --service JSON)

Runs one check now from a probe of CODE through the collector's POST /api/monitors/test and
prints the result; nothing is stored. Exit status: 0 up or degraded, 1 down, 2 refused.
Env: GUARD_COLLECTOR_URL, GUARD_API_KEY (default: the key in GUARD_DATA_DIR/credentials.json).`,
    run: async (args) => {
      process.exitCode = await (await import('./commands/monitor.ts')).runMonitorCommand(args)
    },
  },
  'dead-letters': {
    help: `Usage: guard dead-letters list [--source results|devices|events] [--limit N]
       guard dead-letters replay ID
       guard dead-letters drop ID

Lists what the collector could never store (results, device heartbeats, events that break their
contract or that a store refuses), with the reason; replays one on its original subject after a
fix, or drops it. Env: GUARD_COLLECTOR_URL, GUARD_ADMIN_TOKEN (default: the admin token in
GUARD_DATA_DIR/credentials.json).`,
    run: async (args) => {
      process.exitCode = await (await import('./commands/dead-letters.ts')).runDeadLettersCommand(args)
    },
  },
  bench: {
    help: `Usage: guard bench [NAME]

Runs bench/NAME/run.ts, or every benchmark; each prints JSON.`,
    run: async (args) => (await import('./commands/bench.ts')).runBench(args),
  },
  help: {
    help: usage,
    run: async () => {
      process.stdout.write(`${usage}\n`)
    },
  },
}

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h'

const [name, ...rest] = process.argv.slice(2)
if (name === undefined || isHelp(name)) {
  process.stdout.write(`${usage}\n`)
  process.exit(0)
}
const command = commands[name]
if (!command) {
  process.stderr.write(`guard: unknown command '${name}'\n\n${usage}\n`)
  process.exit(2)
}
// Help is answered here, before the command's module (and any store) is loaded. Admin groups
// (`guard identity users --help`) answer their own help, also before opening anything.
if (isHelp(rest[0]) || (rest.length > 0 && rest.every(isHelp))) {
  process.stdout.write(`${command.help}\n`)
  process.exit(0)
}
try {
  await command.run(rest)
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`)
    process.exit(78)
  }
  if (error instanceof UsageError || (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS_')) {
    process.stderr.write(`${(error as Error).message}\nRun 'guard ${name} --help' for usage.\n`)
    process.exit(2)
  }
  if (error instanceof GuardError) {
    process.stderr.write(`guard ${name}: ${error.message}\n`)
    process.exit(1)
  }
  throw error
}
