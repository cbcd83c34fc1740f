import { toLocationPath } from '@guard/shared'
import { z } from 'zod'

export const SECURITY_PATH = '/account/security'

/**
 * Where the second-factor and security pages go back to: only into the authorization flow, an
 * invitation or identity's account pages, so they are no open redirectors.
 */
export const factorReturnTo = z
  .string()
  .max(4096)
  .refine(
    (value) =>
      value.startsWith('/api/oauth/authorize?') ||
      value.startsWith('/invitations/accept?') ||
      value === '/account' ||
      value === SECURITY_PATH,
    'must be an authorization request, an invitation or an account page',
  )
  .refine((value) => !/[\r\n]/.test(value), 'must not contain line breaks')
  .transform(toLocationPath)
