import { z } from 'zod'
import { defaultTimeout, TIMEOUT_BELOW_INTERVAL } from '../monitor-timing.ts'

export const serviceProtocol = z.enum(['http', 'https', 'tcp', 'dns', 'tls', 'icmp'])
export type ServiceProtocol = z.infer<typeof serviceProtocol>

export const protocolConfig = z
  .object({
    host: z.string().trim().min(1).max(253),
    port: z.number().int().min(1).max(65_535).optional(),
    path: z.string().max(2000).regex(/^\//, 'path must start with /').optional(),
  })
  .strict()
export type ProtocolConfig = z.infer<typeof protocolConfig>

const interval = z.number().int().min(5).max(86_400)
const timeout = z.number().int().min(1).max(300)

export const createServiceInput = z
  .object({
    name: z.string().trim().min(1).max(200),
    protocol: serviceProtocol,
    protocolConfig,
    /** Seconds between checks. */
    checkInterval: interval.default(60),
    /** Seconds a check may take, below the interval. */
    timeout: timeout.optional(),
    enabled: z.boolean().default(true),
  })
  .strict()
  .transform((input) => ({ ...input, timeout: input.timeout ?? defaultTimeout(input.checkInterval) }))
  .refine((input) => input.timeout < input.checkInterval, {
    message: TIMEOUT_BELOW_INTERVAL,
    path: ['timeout'],
  })
export type CreateServiceInput = z.input<typeof createServiceInput>

export const updateServiceInput = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    protocol: serviceProtocol.optional(),
    protocolConfig: protocolConfig.optional(),
    checkInterval: interval.optional(),
    timeout: timeout.optional(),
    enabled: z.boolean().optional(),
  })
  .strict()
export type UpdateServiceInput = z.infer<typeof updateServiceInput>

export interface ServiceRecord {
  id: string
  organizationId: string
  name: string
  protocol: ServiceProtocol
  protocolConfig: ProtocolConfig
  checkInterval: number
  timeout: number
  enabled: boolean
  locations: string[]
  createdAt: string
  updatedAt: string
}

export const serviceView = z.object({
  id: z.string(),
  name: z.string(),
  protocol: serviceProtocol,
  status: z.enum(['up', 'down', 'unknown']),
  lastCheck: z.string().nullable(),
  checkInterval: z.number().int(),
  timeout: z.number().int(),
  enabled: z.boolean(),
  consecutiveFailures: z.number().int(),
  protocolConfig: z.object({ host: z.string(), port: z.number().int().optional(), path: z.string().optional() }),
  createdAt: z.string(),
})
export type ServiceView = z.infer<typeof serviceView>

export const serviceHistoryEntry = z.object({
  id: z.string(),
  serviceId: z.string(),
  status: z.string(),
  responseTime: z.number(),
  timestamp: z.string(),
  message: z.string(),
})

export const checkOutcome = z.object({ status: z.string(), responseTime: z.number(), message: z.string() })
