import { z } from 'zod'
import { callProvider, parseAnswer } from './http.ts'
import type { TokenGrant } from './provider.ts'

const tokenAnswer = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.coerce.number().positive().optional(),
  refresh_token: z.string().min(1).optional(),
  scope: z.string().optional(),
})
export type TokenAnswer = z.infer<typeof tokenAnswer>

/**
 * POSTs one grant to an OAuth 2.0 token endpoint (RFC 6749 §4.1.3, §4.4, §6). Token requests are
 * not retried: a refresh token is spent by the first attempt, whether or not its answer arrives.
 */
export async function requestToken(
  tokenUrl: string,
  form: Record<string, string>,
  options: { provider: string; timeoutMs: number; allowPrivate: boolean },
): Promise<TokenAnswer & { expiresAt: Date | null }> {
  const { json } = await callProvider({ method: 'POST', url: tokenUrl, form }, options)
  const answer = parseAnswer(tokenAnswer, json, options.provider, 'token answer')
  return { ...answer, expiresAt: answer.expires_in ? new Date(Date.now() + answer.expires_in * 1000) : null }
}

export const cachedGrant = (answer: { access_token: string; expiresAt: Date | null }): TokenGrant => ({
  accessToken: answer.access_token,
  expiresAt: answer.expiresAt,
  cache: true,
})
