import type { CollectorContext } from '../../context.ts'
import { fetchPage } from '../pages/fetch-page.ts'
import { titleOf } from '../pages/parse-html.ts'

/** A suggested name for a domain: the page's title, else its host name. */
export async function fetchTitle(ctx: CollectorContext, url: string) {
  const page = await fetchPage(url, { allowPrivate: ctx.env.GUARD_ALLOW_PRIVATE_TARGETS })
  return { title: titleOf(page.body) ?? new URL(page.url).hostname, url: page.url }
}
