import { planLimits } from '@guard/shared'
import { z } from 'zod'

/** A plan, add-on or bundle: the spec fixes id and name; anything else an operator adds is kept. */
export const planItem = z.looseObject({
  id: z.string().min(1),
  name: z.string().min(1),
  currency: z.string().optional(),
  isActive: z.boolean().optional(),
  explanationNl: z.string().optional(),
})

/** A plan may carry `limits`; the collector enforces them on the organizations on that plan. */
export const catalogPlan = planItem.extend({ limits: planLimits.optional() })

export type CatalogPlan = z.infer<typeof catalogPlan>

/** What an operator publishes (`guard identity catalog import`); `updatedAt` is set by the store. */
export const catalogDocument = z.object({
  plans: z.array(catalogPlan),
  addons: z.array(planItem),
  bundles: z.array(planItem).optional(),
  features: z.object({ areas: z.record(z.string(), z.unknown()), keys: z.record(z.string(), z.unknown()) }).optional(),
  addOnCaps: z.record(z.string(), z.record(z.string(), z.number().int())).optional(),
})

export type CatalogDocument = z.infer<typeof catalogDocument>

export const catalogResponse = catalogDocument.extend({
  updatedAt: z.iso.datetime(),
  source: z.enum(['db', 'static']),
})

export type Catalog = z.infer<typeof catalogResponse>
