import {
  importOpenstatus,
  OpenstatusConfigError,
} from '../../shared/src/config-as-code/import/openstatus/import-openstatus.ts'
import {
  parseRegionList,
  RegionMappingError,
  type RegionOverrides,
  readRegionFile,
} from '../../shared/src/config-as-code/import/openstatus/region-table.ts'
import { CommandFailed, EXIT, type Io, parseArgs, processIo, UsageError } from '../cli-kit.ts'
import { deliverImport, unreadable } from './import-report.ts'

export const importOpenstatusUsage = `Usage: guard import openstatus SOURCE [--regions REGION=LOCATION,...] [--regions-file FILE]
                                [--output FILE] [--json]

Reads an openstatus.yaml (the OpenStatus CLI's monitors file, as \`openstatus monitors import\`
writes it or as a monitors: list) and prints a guard.yaml document for review: http monitors
become domains, tcp monitors services, assertions conditions, retry the failure threshold, and
regions locations. Fly.io regions keep their code; Koyeb's and Railway's take the code of the
Fly region in the same city (koyeb_par → cdg, railway_us-east4-eqdc4a → iad…). --regions (or
--regions-file, YAML or JSON: { fra: eu-central }) maps regions otherwise; a location of - leaves
the region out. What has no place in Guard is listed at the top of the file. --output writes the
file (never over an existing one); --json prints {document, unmapped, secrets}. Exit status: 0
imported, 1 unreadable, 2 usage or no such SOURCE, 78 not an openstatus.yaml.`

async function regionOverrides(
  list: string | undefined,
  file: string | undefined,
  scope: string,
): Promise<RegionOverrides> {
  try {
    const fromFile =
      file === undefined ? {} : await readRegionFile(file).catch((error: unknown) => unreadable(file, error))
    return { ...fromFile, ...(list === undefined ? {} : parseRegionList(list)) }
  } catch (error) {
    if (error instanceof RegionMappingError) throw new UsageError(error.message, scope)
    throw error
  }
}

/** `guard import openstatus SOURCE`: the document on stdout or in --output, a summary on stderr. */
export async function runImportOpenstatus(args: string[], io: Io = processIo): Promise<number> {
  const scope = 'import openstatus'
  const { values, positionals } = parseArgs({
    args,
    options: {
      regions: { type: 'string' },
      'regions-file': { type: 'string' },
      output: { type: 'string', short: 'o' },
      json: { type: 'boolean' },
    },
    allowPositionals: true,
    usage: importOpenstatusUsage,
    scope,
  })
  const [source, ...extra] = positionals
  if (!source) throw new UsageError('missing SOURCE (an openstatus.yaml)', scope)
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`, scope)
  const regions = await regionOverrides(values.regions, values['regions-file'], scope)
  const result = await importOpenstatus(source, { regions }).catch((error: unknown) => {
    if (error instanceof OpenstatusConfigError) throw new CommandFailed(`guard ${scope}: ${error.message}`, EXIT.config)
    return unreadable(source, error)
  })
  return deliverImport(result, { origin: `OpenStatus (${source})`, output: values.output, json: values.json }, io)
}
