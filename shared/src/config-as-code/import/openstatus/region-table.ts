import { readFile } from 'node:fs/promises'
import { parse } from 'yaml'

/**
 * OpenStatus's regions → Guard location codes. Guard's probes name themselves (GUARD_PROBE_LOCATION),
 * conventionally by the nearest airport as Fly.io does, so Fly's regions keep their code and Koyeb's
 * and Railway's take the code of the Fly region in the same city. `private` (OpenStatus's own
 * agents) has no counterpart: name a location for it with --regions.
 */
export const DEFAULT_REGIONS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    [
      'ams',
      'arn',
      'atl',
      'bom',
      'bog',
      'bos',
      'cdg',
      'den',
      'dfw',
      'ewr',
      'eze',
      'fra',
      'gdl',
      'gig',
      'gru',
      'hkg',
      'iad',
      'jnb',
      'lax',
      'lhr',
      'mad',
      'mia',
      'nrt',
      'ord',
      'otp',
      'phx',
      'qro',
      'scl',
      'sea',
      'sin',
      'sjc',
      'syd',
      'waw',
      'yul',
      'yyz',
    ].map((code) => [code, code]),
  ),
  koyeb_fra: 'fra',
  koyeb_par: 'cdg',
  koyeb_sfo: 'sjc',
  koyeb_sin: 'sin',
  koyeb_tyo: 'nrt',
  koyeb_was: 'iad',
  'railway_us-west2': 'sjc',
  'railway_us-east4-eqdc4a': 'iad',
  'railway_europe-west4-drams3a': 'ams',
  'railway_asia-southeast1-eqsg3a': 'sin',
}

/** A mapping the user gave: a region to a location, or to nothing (`-`) to leave the region out. */
export type RegionOverrides = Record<string, string>

export class RegionMappingError extends Error {
  override name = 'RegionMappingError'
}

const LOCATION = /^(\*|[a-z0-9-]{2,32}|-)$/

function checked(pairs: Array<[string, unknown]>, origin: string): RegionOverrides {
  const overrides: RegionOverrides = {}
  for (const [region, location] of pairs) {
    const value = String(location ?? '').trim()
    if (region.trim() === '' || !LOCATION.test(value)) {
      throw new RegionMappingError(
        `${origin}: ${region}=${value} is not REGION=LOCATION (a location code such as fra, * for every probe, - to leave the region out)`,
      )
    }
    overrides[region.trim()] = value
  }
  return overrides
}

/** `fra=eu-central,iad=us-east`, as --regions takes it. */
export function parseRegionList(text: string): RegionOverrides {
  const pairs = text
    .split(',')
    .filter((pair) => pair.trim() !== '')
    .map((pair): [string, string] => {
      const at = pair.indexOf('=')
      return at === -1 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)]
    })
  return checked(pairs, '--regions')
}

/** A YAML or JSON file mapping each region to a location: `{ fra: eu-central, iad: us-east }`. */
export async function readRegionFile(path: string): Promise<RegionOverrides> {
  const parsed: unknown = parse(await readFile(path, 'utf8'))
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new RegionMappingError(`${path}: expected a mapping of region to location`)
  }
  return checked(Object.entries(parsed), path)
}

/** The location of a region, `null` when the user left it out, `undefined` when no table names it. */
export function locationOf(region: string, overrides: RegionOverrides): string | null | undefined {
  const location = overrides[region] ?? DEFAULT_REGIONS[region]
  return location === '-' ? null : location
}
