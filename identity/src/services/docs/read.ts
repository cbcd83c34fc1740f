import { readdirSync, readFileSync } from 'node:fs'
import { GuardError } from '@guard/shared'

const DOCS = new URL('../../../seed/docs/', import.meta.url)

export interface DocPage {
  /** The file name without `.md`: overview, api, authentication, mcp, when-to-use. */
  topic: string
  title: string
  markdown: string
}

/**
 * The documentation shipped with Guard, read once: it is part of the release, so the MCP tools,
 * resources and llms.txt all quote the same text and never drift apart.
 */
const pages: DocPage[] = readdirSync(DOCS)
  .filter((name) => name.endsWith('.md'))
  .sort()
  .map((name) => {
    const markdown = readFileSync(new URL(name, DOCS), 'utf8')
    const title = /^# (.+)$/m.exec(markdown)?.[1] ?? name
    return { topic: name.slice(0, -3), title, markdown }
  })

export const docTopics = pages.map((page) => page.topic)

export const listDocs = (): DocPage[] => pages

export function readDoc(topic: string): DocPage {
  const page = pages.find((candidate) => candidate.topic === topic)
  if (!page)
    throw new GuardError('NOT_FOUND', `no documentation topic '${topic}'`, { hint: `topics: ${docTopics.join(', ')}` })
  return page
}

/** The text after the title, for summaries. */
export const docBody = (page: DocPage): string => page.markdown.replace(/^# .+\n+/, '').trim()
