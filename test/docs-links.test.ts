import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// No markdown parser is installed, so links are found after removing what cannot hold one (fenced
// code blocks, code spans), and headings are turned into anchors as GitHub does.

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const DOCS = join(ROOT, 'docs')
const pages = [
  join(ROOT, 'README.md'),
  ...readdirSync(DOCS)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(DOCS, name)),
]

/** The text outside fenced code blocks, line by line (blank lines where code was, to keep numbers). */
function proseLines(markdown: string): string[] {
  let fence: string | undefined
  return markdown.split('\n').map((line) => {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line)?.[1]
    if (fence) {
      if (opening?.startsWith(fence)) fence = undefined
      return ''
    }
    if (opening) {
      fence = opening
      return ''
    }
    return line
  })
}

/** GitHub's anchor for a heading: its text lowercased, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-')
}

function anchorsOf(path: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const line of proseLines(readFileSync(path, 'utf8'))) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1]
    if (!heading) continue
    const base = slug(heading)
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    anchors.add(count === 0 ? base : `${base}-${count}`)
  }
  return anchors
}

/** Every `[text](target)` and `![alt](target)` outside code, with its line number. */
function linksOf(path: string): Array<{ line: number; target: string }> {
  const links: Array<{ line: number; target: string }> = []
  proseLines(readFileSync(path, 'utf8')).forEach((text, index) => {
    const prose = text.replace(/(`+)[^`]*?\1/g, '')
    for (const match of prose.matchAll(/\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ line: index + 1, target: match[1] ?? '' })
    }
  })
  return links
}

function brokenLinks(path: string): string[] {
  const problems: string[] = []
  for (const { line, target } of linksOf(path)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue
    const [file = '', anchor] = target.split('#')
    const resolved = file ? join(dirname(path), decodeURIComponent(file)) : path
    const where = `${relative(ROOT, path)}:${line}: ${target}`
    if (!existsSync(resolved)) {
      problems.push(`${where} (no such file)`)
    } else if (anchor !== undefined) {
      if (statSync(resolved).isDirectory() || !resolved.endsWith('.md'))
        problems.push(`${where} (anchor on a non-page)`)
      else if (!anchorsOf(resolved).has(anchor)) problems.push(`${where} (no such heading)`)
    }
  }
  return problems
}

describe('documentation', () => {
  it('points every relative link of README.md and docs/ at a file and heading that exist', () => {
    expect(pages.length).toBeGreaterThan(10)
    expect(pages.flatMap(brokenLinks)).toEqual([])
  })

  it('links every page of docs/ from its index', () => {
    const index = join(DOCS, 'README.md')
    const linked = new Set(linksOf(index).map(({ target }) => join(DOCS, target.split('#')[0] ?? '')))
    const unlinked = pages.filter((page) => page.startsWith(DOCS) && page !== index && !linked.has(page))
    expect(unlinked.map((page) => relative(ROOT, page))).toEqual([])
  })

  it('keeps the README a landing page with the two commands CI and newcomers run', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    expect(readme.split('\n').length).toBeLessThan(250)
    // .ci/run ends with the README's test command (npm test, after npm ci).
    expect(readme).toContain('npm ci && npm test')
    expect(readme).toContain('npm ci && npm start')
  })

  it("turns headings into GitHub's anchors and finds links outside code", () => {
    const samples = linksOf(join(DOCS, 'README.md'))
    expect(samples.some(({ target }) => target === 'getting-started.md')).toBe(true)
    expect(slug('Database checks: PostgreSQL, MySQL / MariaDB, Redis, MongoDB')).toBe(
      'database-checks-postgresql-mysql--mariadb-redis-mongodb',
    )
    expect(slug('`GET /metrics` and [links](x.md)')).toBe('get-metrics-and-links')
  })
})
