import { z } from 'zod'

/**
 * The parts of Gatus's configuration the importer reads (TwiN/gatus config/…, README
 * "Configuration"), loose so every other key survives to be reported as not carried.
 */

/** YAML gives numbers and booleans where Gatus's Go structs take strings (header values, ids). */
const text = z.union([z.string(), z.number(), z.boolean()]).transform(String)

export const gatusAlert = z.looseObject({
  type: z.string(),
  enabled: z.boolean().optional(),
  'failure-threshold': z.number().int().optional(),
  'success-threshold': z.number().int().optional(),
  'minimum-reminder-interval': text.optional(),
  'send-on-resolved': z.boolean().optional(),
  description: z.string().optional(),
  'provider-override': z.record(z.string(), z.unknown()).optional(),
})
export type GatusAlert = z.infer<typeof gatusAlert>

export const gatusMaintenance = z.looseObject({
  enabled: z.boolean().optional(),
  start: text,
  duration: text,
  timezone: z.string().optional(),
  every: z.array(z.string()).optional(),
})
export type GatusMaintenance = z.infer<typeof gatusMaintenance>

export const gatusEndpoint = z.looseObject({
  enabled: z.boolean().optional(),
  name: text,
  group: text.optional(),
  url: z.string(),
  method: z.string().optional(),
  body: z.string().optional(),
  graphql: z.boolean().optional(),
  headers: z.record(z.string(), text).optional(),
  'extra-labels': z.record(z.string(), text).optional(),
  interval: text.optional(),
  conditions: z.array(text).default([]),
  alerts: z.array(gatusAlert).default([]),
  'maintenance-windows': z.array(gatusMaintenance).default([]),
  dns: z.looseObject({ 'query-type': z.string(), 'query-name': text }).optional(),
  ssh: z.record(z.string(), z.unknown()).optional(),
  client: z.record(z.string(), z.unknown()).optional(),
})
export type GatusEndpoint = z.infer<typeof gatusEndpoint>

export const gatusExternalEndpoint = z.looseObject({
  enabled: z.boolean().optional(),
  name: text,
  group: text.optional(),
  token: text.optional(),
  alerts: z.array(gatusAlert).default([]),
  'maintenance-windows': z.array(gatusMaintenance).default([]),
  heartbeat: z.looseObject({ interval: text.optional() }).optional(),
})
export type GatusExternalEndpoint = z.infer<typeof gatusExternalEndpoint>

/** One provider under `alerting:`; its own settings are read by the provider's mapping. */
export const gatusProvider = z.looseObject({
  'default-alert': gatusAlert.partial().optional(),
  overrides: z.array(z.record(z.string(), z.unknown())).optional(),
})
export type GatusProvider = z.infer<typeof gatusProvider>
