import { z } from 'zod'
import { docTopics, readDoc } from '../docs/read.ts'
import { platformLinks } from './links.ts'

export const developerDocsInput = {
  topic: z
    .enum(docTopics as [string, ...string[]])
    .optional()
    .describe('Documentation topic; api when omitted'),
}

export const developerDocsOutput = z.object({
  topic: z.string(),
  title: z.string(),
  markdown: z.string(),
  topics: z.array(z.string()),
  links: z.record(z.string(), z.string()),
})

/** One page of the developer documentation, with the list of topics and the machine-readable documents. */
export function getDeveloperDocs(
  input: { topic?: string | undefined },
  baseUrl: string,
): z.infer<typeof developerDocsOutput> {
  const page = readDoc(input.topic ?? 'api')
  return {
    topic: page.topic,
    title: page.title,
    markdown: page.markdown,
    topics: docTopics,
    links: platformLinks(baseUrl),
  }
}
