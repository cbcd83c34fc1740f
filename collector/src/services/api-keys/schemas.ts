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
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
})
export type ApiKeyView = z.infer<typeof apiKeyView>
