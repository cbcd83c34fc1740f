import { z } from 'zod'

/**
 * One monitor of `openstatus.yaml` as the OpenStatus CLI reads it (openstatusHQ/cli,
 * internal/config/monitor.go and skills/cli/references/monitor-config.md); loose, so keys the
 * importer does not know survive to be reported.
 */
const text = z.union([z.string(), z.number(), z.boolean()]).transform(String)

export const openstatusAssertion = z.looseObject({
  kind: z.string(),
  compare: z.string(),
  target: z.union([z.string(), z.number(), z.boolean()]).optional(),
  key: z.string().optional(),
})
export type OpenstatusAssertion = z.infer<typeof openstatusAssertion>

export const openstatusMonitor = z.looseObject({
  name: text.optional(),
  description: z.string().optional(),
  kind: z.string(),
  active: z.boolean().optional(),
  public: z.boolean().optional(),
  frequency: text,
  regions: z.array(text).default([]),
  retry: z.number().int().min(0).optional(),
  timeout: z.number().int().positive().optional(),
  degradedAfter: z.number().int().positive().optional(),
  request: z.looseObject({
    url: z.string().optional(),
    method: z.string().optional(),
    headers: z.record(z.string(), text).optional(),
    body: z.string().optional(),
    followRedirects: z.boolean().optional(),
    host: z.string().optional(),
    port: z.number().int().optional(),
  }),
  assertions: z.array(openstatusAssertion).default([]),
  openTelemetry: z.unknown().optional(),
})
export type OpenstatusMonitor = z.infer<typeof openstatusMonitor>
