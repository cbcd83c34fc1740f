import { GuardError } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { fetchPage } from '../pages/fetch-page.ts'
import { iconHrefOf } from '../pages/parse-html.ts'
import { findDomain } from './find.ts'

/**
 * The icon the domain's page declares, else its origin's /favicon.ico. A page that cannot be
 * fetched still gets the conventional location; a target the guard refuses does not.
 */
export async function domainIcon(ctx: CollectorContext, caller: Caller, id: string) {
  const domain = await findDomain(ctx.sql, caller, id)
  const fallback = new URL('/favicon.ico', domain.url).toString()
  try {
    const page = await fetchPage(domain.url, { allowPrivate: ctx.env.GUARD_ALLOW_PRIVATE_TARGETS })
    const href = iconHrefOf(page.body)
    return { iconUrl: href ? new URL(href, page.url).toString() : new URL('/favicon.ico', page.url).toString() }
  } catch (error) {
    if (error instanceof GuardError && error.code === 'TARGET_NOT_ALLOWED') throw error
    return { iconUrl: fallback }
  }
}
