import { incidentStatus } from '@guard/shared'
import { z } from 'zod'

export const publicWordingView = z.object({
  id: z.string(),
  title: z.string().meta({ description: 'the internal title' }),
  publicTitle: z.string().nullable().meta({
    description:
      "shown on status pages; null: the title (manual incidents) or one derived from the cause and the page's component names",
  }),
  automatic: z.boolean().meta({ description: 'opened by the incident engine, not by a person' }),
  publishedAt: z
    .string()
    .nullable()
    .meta({ description: 'when it was published; pages holding automatic incidents as drafts show it from then' }),
  updates: z.array(
    z.object({
      id: z.string(),
      status: incidentStatus,
      createdAt: z.string(),
      message: z.string().meta({ description: 'the internal message' }),
      publicMessage: z.string().nullable().meta({ description: "the operator's public wording; null: derived" }),
      shown: z.string().meta({ description: 'what status pages show for it' }),
    }),
  ),
})
export type PublicWordingView = z.infer<typeof publicWordingView>

export const editPublicWordingInput = z
  .object({
    publicTitle: z.string().trim().min(1).max(200).nullable().optional(),
    published: z.boolean().optional().meta({ description: 'true publishes it, false takes it back to draft' }),
    notifySubscribers: z.boolean().default(true).meta({
      description:
        'publishing a draft tells the subscribers of the pages that held it (false: publish silently); ignored otherwise',
    }),
    updates: z
      .array(z.object({ id: z.string().min(1).max(64), publicMessage: z.string().trim().min(1).max(5000).nullable() }))
      .max(200)
      .optional()
      .meta({ description: 'public wording per update; null returns an update to its derived wording' }),
  })
  .strict()
export type EditPublicWordingInput = z.input<typeof editPublicWordingInput>
