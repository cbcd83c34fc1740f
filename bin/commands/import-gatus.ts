import { importGatus } from '../../shared/src/config-as-code/import/gatus/import-gatus.ts'
import { GatusConfigError } from '../../shared/src/config-as-code/import/gatus/read-gatus-config.ts'
import { CommandFailed, EXIT, type Io, parseArgs, processIo, UsageError } from '../cli-kit.ts'
import { deliverImport, unreadable } from './import-report.ts'

export const importGatusUsage = `Usage: guard import gatus SOURCE [--output FILE] [--json]

Reads Gatus's configuration (SOURCE: a config.yaml, or a directory whose *.yaml and *.yml files
are merged as Gatus merges them) and prints a guard.yaml document for review: HTTP endpoints
become domains, tcp://, udp://, icmp://, tls://, ws(s)://, grpc(s)://, ssh:// and DNS endpoints
services, external endpoints heartbeats, groups groups, alerting providers channels, maintenance
windows maintenance. Gatus's \${VAR} stay references (\${env:VAR}); a secret written in clear becomes
\${env:GUARD_CHANNEL_<ID>_<FIELD>}. What has no place in Guard is listed at the top of the file.
--output writes the file (never over an existing one); --json prints {document, unmapped,
secrets}. Exit status: 0 imported, 1 unreadable, 2 usage or no such SOURCE, 78 Gatus would
refuse the configuration too.`

/** `guard import gatus SOURCE`: the document on stdout or in --output, a summary on stderr. */
export async function runImportGatus(args: string[], io: Io = processIo): Promise<number> {
  const scope = 'import gatus'
  const { values, positionals } = parseArgs({
    args,
    options: { output: { type: 'string', short: 'o' }, json: { type: 'boolean' } },
    allowPositionals: true,
    usage: importGatusUsage,
    scope,
  })
  const [source, ...extra] = positionals
  if (!source) throw new UsageError('missing SOURCE (a config.yaml or a directory of them)', scope)
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`, scope)
  const result = await importGatus(source).catch((error: unknown) => {
    if (error instanceof GatusConfigError) throw new CommandFailed(`guard ${scope}: ${error.message}`, EXIT.config)
    return unreadable(source, error)
  })
  return deliverImport(result, { origin: `Gatus (${source})`, output: values.output, json: values.json }, io)
}
