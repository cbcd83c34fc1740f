import type { PageText } from '../i18n/page-text.ts'
import type { PublicPageAnswer } from '../read-public.ts'
import { escapeHtml } from '../render-html.ts'

/**
 * The page's subscribe form, working without JavaScript: an e-mail address and, folded away, the
 * components to follow (their ids are the public ones badges use). Posts to the page's own origin
 * and path (`pagePath`: `/status/{slug}`, or `` on its custom host).
 */
export function renderSubscribeForm(
  answer: Pick<PublicPageAnswer, 'page' | 'componentIds'>,
  pagePath: string,
  text: PageText,
): string {
  const path = escapeHtml(pagePath)
  const components = answer.page.components
    .map(
      (component, index) =>
        `<li><label><input type="checkbox" name="componentIds" value="${escapeHtml(answer.componentIds[index] ?? '')}"> ${escapeHtml(component.name)}</label></li>`,
    )
    .join('')
  return `<section aria-labelledby="subscribe" class="subscribe"><h2 id="subscribe">${text.html('subscribe.title')}</h2>
<form method="post" action="${path}/subscribe">
<label for="subscribe-email">${text.html('subscribe.email')}</label>
<input id="subscribe-email" type="email" name="email" required autocomplete="email" maxlength="320">
${components ? `<details><summary>${text.html('subscribe.components')}</summary><ul>${components}</ul></details>` : ''}
<button type="submit">${text.html('subscribe.button')}</button>
<a href="${path}/feed.atom">${text.html('subscribe.atom')}</a>
</form></section>`
}
