import { z } from 'zod'

/**
 * What identity answers the collector about one user in one organization
 * (`GET /api/v1/internal/organizations/{id}/members/{userId}`), so an API key acts with at most its
 * creator's current rights.
 */
export const memberRole = z.object({
  organizationId: z.string(),
  userId: z.string(),
  role: z
    .string()
    .nullable()
    .describe('The membership role now; null when the user is not a member, is disabled or no longer exists'),
})

export type MemberRole = z.infer<typeof memberRole>
