import {
  type Bus,
  browserCheckSubject,
  decodeJson,
  dnsLookupRequestV1,
  encodeJson,
  geoLookupRequestV1,
  type Logger,
  type ManualCheckReply,
  manualCheckRequestV1,
  manualCheckSubject,
  PROBE_QUEUE,
  portScanRequestV1,
  type Responder,
  type Stoppable,
  toolboxSubject,
} from '@guard/shared'
import { z } from 'zod'
import { type RunCheckOptions, runCheck } from './run-check.ts'
import { lookupDns } from './toolbox/dns-lookup.ts'
import { geolocate } from './toolbox/geolocate.ts'
import { scanPorts } from './toolbox/port-scan.ts'

/** Parses a request body, turning a schema failure into a message the requester can act on. */
function parseRequest<Schema extends z.ZodType>(schema: Schema, data: Uint8Array): z.output<Schema> {
  try {
    return decodeJson(schema, data)
  } catch (error) {
    throw new Error(`invalid request: ${error instanceof z.ZodError ? z.prettifyError(error) : String(error)}`)
  }
}

/**
 * Answers the collector's requests on this probe's location and on `any`, in the queue group
 * `probes`, so each request reaches exactly one probe: manual checks (browser ones on their own
 * subject, answered by probes with a browser) and the toolbox jobs.
 */
export async function answerRequests(
  bus: Bus,
  location: string,
  allowPrivate: boolean,
  log: Logger,
  checkOptions: Pick<RunCheckOptions, 'credentialsKey' | 'check' | 'browser'> = {},
): Promise<Stoppable[]> {
  const manualCheck: Responder = async (data) => {
    const { monitor } = parseRequest(manualCheckRequestV1, data)
    const result = await runCheck(monitor, location, allowPrivate, checkOptions)
    return encodeJson({ v: 1, result } satisfies ManualCheckReply)
  }
  const dns: Responder = async (data) =>
    encodeJson(await lookupDns(parseRequest(dnsLookupRequestV1, data), allowPrivate))
  const ports: Responder = async (data) => {
    const request = parseRequest(portScanRequestV1, data)
    const progressSubject = request.progressSubject
    const cancel = new AbortController()
    const cancelling = request.cancelSubject
      ? await bus.subscribe(request.cancelSubject, () => cancel.abort())
      : undefined
    try {
      const reply = await scanPorts(
        request,
        allowPrivate,
        (progress) => {
          if (progressSubject) bus.emit(progressSubject, encodeJson(progress)).catch(() => {})
        },
        cancel.signal,
      )
      return encodeJson(reply)
    } finally {
      await cancelling?.stop()
    }
  }
  const geo: Responder = async (data) =>
    encodeJson(await geolocate(parseRequest(geoLookupRequestV1, data).target, allowPrivate))

  const logged =
    (job: string, responder: Responder): Responder =>
    async (data, subject) => {
      try {
        return await responder(data, subject)
      } catch (error) {
        log.info({ job, subject, err: error }, 'request failed')
        throw error
      }
    }
  const handlers: Array<[(place: string) => string, string, Responder]> = [
    [manualCheckSubject, 'check', manualCheck],
    [(place) => toolboxSubject(place, 'dns'), 'dns', dns],
    [(place) => toolboxSubject(place, 'ports'), 'ports', ports],
    [(place) => toolboxSubject(place, 'geo'), 'geo', geo],
    // Only a probe with a browser answers browser runs, so a location without one has no responder.
    ...(checkOptions.browser
      ? [[browserCheckSubject, 'browser-check', manualCheck] satisfies [(place: string) => string, string, Responder]]
      : []),
  ]
  const stoppables: Stoppable[] = []
  for (const [subject, job, responder] of handlers) {
    for (const place of [location, 'any']) {
      stoppables.push(await bus.respond(subject(place), PROBE_QUEUE, logged(job, responder)))
    }
  }
  return stoppables
}
