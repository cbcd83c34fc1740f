import { readdir, readFile, stat } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { parse } from 'yaml'

/** A configuration Gatus itself would refuse to load: a file that does not parse, a value given twice. */
export class GatusConfigError extends Error {
  override name = 'GatusConfigError'
}

export type GatusNode = { [key: string]: unknown }

export interface GatusSource {
  /** The merged configuration, `${VAR}` and `$VAR` rewritten as `${env:VAR}`. */
  config: GatusNode
  /** The files read, in the order Gatus merges them. */
  files: string[]
  /** The file an object of the configuration came from (the directory, for one merged from several). */
  sourceOf(node: unknown): string
}

const isNode = (value: unknown): value is GatusNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Gatus expands environment variables in the whole text at start (`os.ExpandEnv`, `$$` for a
 * literal `$`). Guard resolves them at plan and apply time instead, so they stay references.
 */
export function gatusEnvToPlaceholders(text: string): string {
  return text.replace(/\$(\$|\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g, (_, all, braced, bare) =>
    all === '$' ? '$' : `\${env:${braced ?? bare}}`,
  )
}

function rewriteStrings(value: unknown): unknown {
  if (typeof value === 'string') return gatusEnvToPlaceholders(value)
  if (Array.isArray(value)) return value.map(rewriteStrings)
  if (isNode(value))
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, rewriteStrings(inner)]))
  return value
}

/** Every *.yaml and *.yml under `directory`, depth first in name order, as Go's filepath.WalkDir visits them. */
async function configFiles(directory: string): Promise<string[]> {
  const entries = (await readdir(directory, { withFileTypes: true })).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  )
  const files: string[] = []
  for (const entry of entries) {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) files.push(...(await configFiles(path)))
    else if (/\.ya?ml$/.test(entry.name)) files.push(path)
  }
  return files
}

/**
 * Gatus's merge of a directory (TwiN/deepmerge): maps merge key by key, lists append, and a
 * key holding a plain value may be given once only.
 */
function deepMerge(into: GatusNode, from: GatusNode, path: string[], file: string): GatusNode {
  for (const [key, value] of Object.entries(from)) {
    const here = [...path, key]
    const existing = into[key]
    if (!(key in into)) into[key] = value
    else if (isNode(existing) && isNode(value)) into[key] = deepMerge({ ...existing }, value, here, file)
    else if (Array.isArray(existing) && Array.isArray(value)) into[key] = [...existing, ...value]
    else throw new GatusConfigError(`${here.join('.')} is given more than once (again in ${file})`)
  }
  return into
}

function parseFile(text: string, file: string): GatusNode {
  let parsed: unknown
  try {
    parsed = parse(text)
  } catch (error) {
    throw new GatusConfigError(`${file}: ${(error as Error).message}`)
  }
  if (parsed === null || parsed === undefined) return {}
  if (!isNode(parsed)) throw new GatusConfigError(`${file}: expected a mapping at the top level`)
  return rewriteStrings(parsed) as GatusNode
}

/** Remembers which file each list item and each map of a file came from. */
function markSources(value: unknown, file: string, sources: WeakMap<object, string>) {
  if (Array.isArray(value)) for (const item of value) markSources(item, file, sources)
  else if (isNode(value)) {
    sources.set(value, file)
    for (const inner of Object.values(value)) markSources(inner, file, sources)
  }
}

/** Reads a Gatus `config.yaml`, or a directory of them merged the way Gatus merges it. */
export async function readGatusConfig(path: string): Promise<GatusSource> {
  const isDirectory = (await stat(path)).isDirectory()
  // Gatus skips files whose path holds `..`.
  const files = isDirectory ? (await configFiles(path)).filter((file) => !relative(path, file).includes('..')) : [path]
  if (files.length === 0) throw new GatusConfigError(`${path}: no *.yaml or *.yml file`)
  const sources = new WeakMap<object, string>()
  let config: GatusNode = {}
  for (const file of files) {
    const parsed = parseFile(await readFile(file, 'utf8'), file)
    markSources(parsed, file, sources)
    config = deepMerge(config, parsed, [], file)
  }
  return {
    config,
    files,
    sourceOf: (node) => (typeof node === 'object' && node !== null ? sources.get(node) : undefined) ?? path,
  }
}
