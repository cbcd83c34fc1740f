import { GuardError } from '@guard/shared'
import { z } from 'zod'
import { productGuides } from '../docs/products.ts'

export const whenToUseInput = {
  product: z.string().optional().describe('A product slug such as monitoring; all products when omitted'),
}

export const whenToUseOutput = z.object({
  products: z.array(z.object({ slug: z.string(), name: z.string(), whenToUse: z.string().describe('Markdown') })),
})

/** The when-to-use guide, for one product or all of them. */
export function getWhenToUse(input: { product?: string | undefined }): z.infer<typeof whenToUseOutput> {
  const guides = productGuides()
  if (!input.product) return { products: guides }
  const guide = guides.find((candidate) => candidate.slug === input.product)
  if (!guide) {
    throw new GuardError('NOT_FOUND', `no product '${input.product}'`, {
      hint: `products: ${guides.map((candidate) => candidate.slug).join(', ')}`,
    })
  }
  return { products: [guide] }
}
