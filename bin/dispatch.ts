// `guard <command> …` as a function, so tests run the whole command line in-process; bin/cli.ts
// is the process around it. Each command's module loads only when it runs: help and usage errors
// are answered before any store, bus or server is touched.
import { didYouMean, EXIT, HelpRequested, type Io, parseArgs, processIo, report, UsageError } from './cli-kit.ts'

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
  channels list|test ID      notification channels, and a test message to one now
  validate -f FILE|DIR       check a guard.yaml document offline (schema, references)
  plan -f FILE|DIR           what apply would change (exit 2: changes, 0: none)
  apply -f FILE|DIR          make the organization match guard.yaml (--prune deletes the rest)
  export [-o FILE]           the organization as a guard.yaml document
  synthetic run FILE         run a browser script on this machine and print the run
  heartbeat --url PING_URL -- COMMAND
                             run a job and ping its heartbeat monitor: start, then the exit code
  dead-letters list|replay|drop
                             messages the collector could never store, and what to do with them
  import NAME SOURCE [-o FILE]
                             another tool's monitors as a guard.yaml for review (uptime-kuma)
  backup --to DIR            a backup of the data directory, Guard running or not
  restore --from DIR         restore a backup into an empty data directory
  bench [NAME]               run bench/NAME/run.ts, or every benchmark; each prints JSON
  help [COMMAND]             this text, or one command's

\`guard <command> --help\` describes one command; --debug anywhere prints stack traces.
Configuration comes from environment variables; see the README's configuration table.
Exit status: 0 done, 1 failed (a target down, a request refused), 2 usage error,
69 the collector or identity does not answer, 70 internal error, 78 invalid configuration.`

interface Command {
  /** Answered here for `guard <command> --help`; commands with actions answer their own. */
  help?: string
  /** Resolves with the exit status, or nothing for 0 (a server keeps running after it resolves). */
  run(args: string[]): Promise<number | undefined>
}

/** Commands that take no options refuse any, so a typo never starts a second instance. */
const noOptions = (args: string[], help: string) => {
  parseArgs({ args, options: {}, usage: help })
}

const startHelp = `Usage: guard start

Runs identity, the collector and one probe (location \`local\`) in one process, with the
in-process bus, PGlite and chDB under GUARD_DATA_DIR (default ./data) unless NATS_URL,
DATABASE_URL or CLICKHOUSE_URL name servers. Checks first that its ports are free and that
no other process holds the data directory, and changes nothing when either fails.`

const identityHelp = `Usage: guard identity                      run the identity provider on its own
       guard identity <group> <action> ...   admin commands, printing JSON

Groups: users, orgs, clients, keys, audit (admin API of the running identity at
GUARD_IDENTITY_URL, or the store under the data directory's lock when none answers),
catalog, changelog. \`guard identity <group> --help\` lists a group's actions.`

const collectorHelp = `Usage: guard collector

Runs the collector on its own: the monitoring API, ingest of probe results from NATS
(NATS_URL is required), PostgreSQL (DATABASE_URL) and ClickHouse (CLICKHOUSE_URL).`

const probeHelp = `Usage: guard probe [--location CODE]

Runs a probe for one location (default GUARD_PROBE_LOCATION, else \`local\`); needs NATS_URL.`

const benchHelp = `Usage: guard bench [NAME]...

Runs bench/NAME/run.ts, or every benchmark; each prints JSON.`

export const commands: Record<string, Command> = {
  start: {
    help: startHelp,
    run: async (args) => {
      noOptions(args, startHelp)
      await (await import('./commands/start.ts')).runStart()
      return undefined
    },
  },
  identity: {
    help: identityHelp,
    run: async (args) => {
      if (args.length === 0) await (await import('./commands/identity.ts')).runIdentity()
      else await (await import('./commands/identity-admin/index.ts')).runIdentityAdmin(args)
      return undefined
    },
  },
  collector: {
    help: collectorHelp,
    run: async (args) => {
      noOptions(args, collectorHelp)
      await (await import('./commands/collector.ts')).runCollector()
      return undefined
    },
  },
  probe: {
    help: probeHelp,
    run: async (args) => {
      const { values } = parseArgs({ args, options: { location: { type: 'string', short: 'l' } }, usage: probeHelp })
      await (await import('./commands/probe.ts')).runProbe(values.location)
      return undefined
    },
  },
  agent: {
    run: async (args) => {
      await (await import('./commands/agent.ts')).runAgent(args)
      return undefined
    },
  },
  monitor: {
    run: async (args) => (await import('./commands/monitor.ts')).runMonitorCommand(args),
  },
  ...Object.fromEntries(
    (['validate', 'plan', 'apply', 'export'] as const).map((name) => [
      name,
      { run: async (args: string[]) => (await import('./commands/config.ts')).runConfigCommand(name, args) },
    ]),
  ),
  synthetic: {
    run: async (args) => (await import('./commands/synthetic.ts')).runSyntheticCommand(args),
  },
  heartbeat: {
    run: async (args) => (await import('./commands/heartbeat.ts')).runHeartbeat(args),
  },
  channels: {
    run: async (args) => (await import('./commands/channels.ts')).runChannelsCommand(args),
  },
  'dead-letters': {
    run: async (args) => (await import('./commands/dead-letters.ts')).runDeadLettersCommand(args),
  },
  import: {
    run: async (args) => (await import('./commands/import.ts')).runImport(args),
  },
  backup: {
    run: async (args) => {
      await (await import('./commands/backup.ts')).runBackup(args)
      return undefined
    },
  },
  restore: {
    run: async (args) => {
      await (await import('./commands/backup.ts')).runRestore(args)
      return undefined
    },
  },
  bench: {
    help: benchHelp,
    run: async (args) => {
      const { positionals } = parseArgs({ args, options: {}, allowPositionals: true, usage: benchHelp })
      await (await import('./commands/bench.ts')).runBench(positionals)
      return undefined
    },
  },
  help: {
    help: usage,
    run: async (args) => {
      const { positionals } = parseArgs({ args, options: {}, allowPositionals: true, usage })
      const [name] = positionals
      if (name === undefined) throw new HelpRequested(usage)
      const command = commands[name]
      if (!command) throw new UsageError(`unknown command '${name}'${didYouMean(name, Object.keys(commands))}`)
      if (command.help) throw new HelpRequested(command.help)
      return command.run(['--help'])
    },
  },
}

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h'

/** Runs `guard <args>` and resolves with its exit status; everything it prints goes through `io`. */
export async function guard(argv: string[], io: Io = processIo): Promise<number> {
  const debug = argv.includes('--debug')
  const [name, ...rest] = argv.filter((arg) => arg !== '--debug')
  if (name === undefined || isHelp(name)) {
    io.stdout(`${usage}\n`)
    return EXIT.ok
  }
  const command = commands[name]
  if (!command) {
    const hint = didYouMean(name, Object.keys(commands))
    return report(new UsageError(`unknown command '${name}'${hint}`), '', io, debug)
  }
  // `guard identity --help` is the command's help; `guard identity users --help` the group's.
  if (command.help && (isHelp(rest[0]) || (rest.length > 0 && rest.every(isHelp)))) {
    io.stdout(`${command.help}\n`)
    return EXIT.ok
  }
  try {
    return (await command.run(rest)) ?? EXIT.ok
  } catch (error) {
    return report(error, name, io, debug)
  }
}
