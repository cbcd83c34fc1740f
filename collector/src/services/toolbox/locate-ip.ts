import { decodeJson, encodeJson, geoLookupReplyV1, toolboxSubject } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { requirePermission } from '../access/require.ts'
import { askProbe, guardTarget } from './ask-probe.ts'
import { type IpScanInput, type IpScanResult, ipScanInput } from './schemas.ts'

const TIMEOUT_MS = 15_000

/** Country, city, region and network operator of an address, from the probe's offline databases. */
export async function locateIp({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: IpScanInput
}): Promise<IpScanResult> {
  requirePermission(caller, 'toolbox:read')
  const { ip, location } = ipScanInput.parse(input)
  await guardTarget(ctx, ip)
  const reply = decodeJson(
    geoLookupReplyV1,
    await askProbe(ctx, {
      task: 'the IP lookup',
      subject: toolboxSubject(location ?? 'any', 'geo'),
      body: encodeJson({ v: 1, target: ip }),
      location,
      timeoutMs: TIMEOUT_MS,
    }),
  )
  return {
    ip: reply.ip,
    country: reply.countryCode ?? null,
    city: reply.city ?? null,
    region: reply.region ?? null,
    isp: reply.isp ?? null,
    organization: reply.organization ?? null,
  }
}
