import { docBody, readDoc } from './read.ts'

export interface ProductGuide {
  slug: string
  name: string
  whenToUse: string
}

/**
 * Guard's products as the when-to-use guide describes them, one `## slug: Name` section each: the
 * guide is the one place a product is introduced, so adding a section adds the product everywhere.
 */
export function productGuides(): ProductGuide[] {
  const sections = docBody(readDoc('when-to-use')).split(/^## /m).slice(1)
  return sections.flatMap((section) => {
    const [heading = '', ...body] = section.split('\n')
    const match = /^([a-z0-9-]+): (.+)$/.exec(heading.trim())
    return match ? [{ slug: match[1]!, name: match[2]!, whenToUse: body.join('\n').trim() }] : []
  })
}
