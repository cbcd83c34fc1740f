import { z } from 'zod'
import { permissionString, scopeString } from '../access/permissions.ts'

const MAX_LIFETIME_MS = 5 * 365 * 86_400_000

export const createApiKeyInput = z
  .object({
    name: z.string().trim().min(1).max(100),
    /** `<resource>:<action>`, e.g. `domains:read`. */
    permissions: z.array(permissionString).max(50).optional(),
    /** `<action>:<resource>`, e.g. `read:domains`; stored as the permissions they grant. */
    scopes: z.array(scopeString).max(50).optional(),
    expires_at: z.iso
      .datetime({ offset: true })
      .refine((value) => Date.parse(value) > Date.now(), 'expires_at must be in the future')
      .refine((value) => Date.parse(value) < Date.now() + MAX_LIFETIME_MS, 'expires_at must be within 5 years')
      .optional(),
    belongs_to: z
      .enum(['user', 'organization'])
      .default('user')
      .describe(
        "user: the key acts with at most its creator's current rights and stops working when they leave the organization or are disabled. " +
          'organization: for automation that must outlive a person; only an owner creates one, and it keeps its permissions whoever leaves',
      ),
  })
  .strict()
  .refine((input) => (input.permissions?.length ?? 0) + (input.scopes?.length ?? 0) > 0, {
    message: 'give at least one permission or scope',
    path: ['permissions'],
  })
export type CreateApiKeyInput = z.infer<typeof createApiKeyInput>

export const apiKeyView = z.object({
  id: z.string(),
  name: z.string(),
  /** The first characters of the key, to recognise it; the key itself is never shown again. */
  prefix: z.string(),
  permissions: z.array(z.string()),
  belongs_to: z
    .enum(['user', 'organization'])
    .describe(
      "user: works with at most its creator's current rights; organization: created by an owner, outlives any member",
    ),
  created_by: z.string().nullable().describe('The user who created the key; null for the bootstrap key'),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
})
export type ApiKeyView = z.infer<typeof apiKeyView>
