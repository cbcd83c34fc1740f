import { writeFile } from 'node:fs/promises'
import { answerHelp, CommandFailed, didYouMean, type Io, parseArgs, processIo, UsageError } from '../cli-kit.ts'

/** What `guard import` needs of an importer: the document for review and a report of what it left out. */
export interface Importer {
  /** The usage's line for it: what SOURCE is. */
  source: string
  run(
    source: string,
  ): Promise<{ document: { version: number } & Record<string, unknown>; origin: string; report: string }>
}

/** Importers by the name `guard import NAME` takes; each loads only when it runs. */
export const importers: Record<string, () => Promise<Importer>> = {
  'uptime-kuma': async () => {
    const { formatReport, importUptimeKuma } = await import('../../shared/src/config-as-code/import/index.ts')
    return {
      source: "Uptime Kuma's SQLite database (data/kuma.db, 1.x or 2.x) or a 1.x backup JSON",
      run: async (source) => {
        const result = await importUptimeKuma(source)
        return { document: { ...result.document }, origin: result.origin, report: formatReport(result) }
      },
    }
  },
}

/** Importers with options of their own (`guard import NAME --help`) read the rest of the command line. */
const withOwnOptions: Record<string, { source: string; run(args: string[], io: Io): Promise<number> }> = {
  gatus: {
    source: "Gatus's config.yaml, or a directory of them",
    run: async (args, io) => (await import('./import-gatus.ts')).runImportGatus(args, io),
  },
  openstatus: {
    source: 'an openstatus.yaml (the OpenStatus CLI monitors file); regions map with --regions',
    run: async (args, io) => (await import('./import-openstatus.ts')).runImportOpenstatus(args, io),
  },
}

export const importUsage = `Usage: guard import NAME SOURCE [-o FILE]

Reads another monitoring tool's configuration and writes it as a guard.yaml document for review
(then \`guard plan -f FILE\`), to FILE or standard output; nothing is sent to Guard. The report
on standard error lists the environment variables that stand for secrets (never written) and
everything that could not be mapped, with the reason. NAME is one of:
  uptime-kuma   Uptime Kuma's SQLite database (data/kuma.db, 1.x or 2.x; needs Node 22.5+)
                or a 1.x "Export backup" JSON
  gatus         ${withOwnOptions.gatus!.source}
  openstatus    ${withOwnOptions.openstatus!.source}
\`guard import NAME --help\` shows an importer's own options.
Exit status: 0 written, 1 the source cannot be read, 2 usage error.`

/** `guard import NAME SOURCE [-o FILE]`; returns the exit status. */
export async function runImport(args: string[], io: Io = processIo): Promise<number> {
  const own = args[0] === undefined ? undefined : withOwnOptions[args[0]]
  if (own) return own.run(args.slice(1), io)
  answerHelp(args, importUsage)
  const { values, positionals } = parseArgs({
    args,
    options: { output: { type: 'string', short: 'o' } },
    allowPositionals: true,
    usage: importUsage,
  })
  const [name, source, ...extra] = positionals
  const names = [...Object.keys(importers), ...Object.keys(withOwnOptions)]
  if (!name) throw new UsageError(`name what to import from: ${names.join(', ')}`)
  const load = importers[name]
  if (!load) {
    throw new UsageError(`unknown source '${name}'${didYouMean(name, names)}; one of ${names.join(', ')}`)
  }
  if (!source) throw new UsageError(`name the ${name} file to read`)
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`)
  const importer = await load()
  const result = await importer.run(source).catch((error: unknown) => {
    throw new CommandFailed(`guard import: ${error instanceof Error ? error.message : String(error)}`)
  })
  const { documentYaml } = await import('../../shared/src/config-as-code/import/index.ts')
  const yaml = documentYaml(
    result.document,
    `Imported from ${result.origin} by \`guard import ${name}\`.\nReview it, set the secrets' environment variables, then run \`guard plan -f\` on it.`,
  )
  if (values.output) await writeFile(values.output, yaml)
  else io.stdout(yaml)
  io.stderr(result.report)
  return 0
}
