import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { isMap, isNode, isScalar, LineCounter, parseDocument, type Document as YamlDocument } from 'yaml'
import type { z } from 'zod'
import { DOCUMENT_LISTS, type GuardDocument, guardDocument } from './document.ts'

/** One file of a document: its name (for messages) and its text. */
export type DocumentSource = { file: string; text: string }

/** Where a problem is: the file, the 1-based line and column, and the path in the document. */
export type DocumentIssue = { file: string; line: number; column: number; path: string; message: string }

type ParsedSource = { file: string; yaml: YamlDocument; lines: LineCounter }
type Origin = { source: ParsedSource; index: number }

/** A document merged from its files, and how to find any of its values in them. */
export type LoadedDocument = {
  document: GuardDocument | undefined
  issues: DocumentIssue[]
  /** The position of a path of the merged document (`['domains', 3, 'url']`) in its file. */
  locate: (path: readonly PropertyKey[], message: string) => DocumentIssue
}

const ENV_REFERENCE = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g

/** The files of a path: the file itself, or a directory's *.yaml and *.yml files in name order. */
export async function readDocumentSources(path: string): Promise<DocumentSource[]> {
  if (!(await stat(path)).isDirectory()) return [{ file: path, text: await readFile(path, 'utf8') }]
  const names = (await readdir(path)).filter((name) => /\.ya?ml$/.test(name)).sort()
  return Promise.all(
    names.map(async (name) => ({ file: join(path, name), text: await readFile(join(path, name), 'utf8') })),
  )
}

/** Every `${env:NAME}` a value names, so a caller can say which are not set. */
export function envReferences(value: unknown): string[] {
  const names = new Set<string>()
  walkStrings(value, (text) => {
    for (const match of text.matchAll(ENV_REFERENCE)) names.add(match[1]!)
    return text
  })
  return [...names]
}

/** The value with every `${env:NAME}` replaced from `env`; a name not set is left as written. */
export function resolveEnv<Value>(value: Value, env: Readonly<Record<string, string | undefined>>): Value {
  return walkStrings(value, (text) => text.replace(ENV_REFERENCE, (written, name: string) => env[name] ?? written))
}

function walkStrings<Value>(value: Value, replace: (text: string) => string): Value {
  if (typeof value === 'string') return replace(value) as Value
  if (Array.isArray(value)) return value.map((item) => walkStrings(item, replace)) as Value
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walkStrings(item, replace)])) as Value
  }
  return value
}

/**
 * Parses, merges and checks a document's files: YAML syntax, the schema, and the references
 * between entries. With `env`, `${env:NAME}` references are resolved and one not set is an issue.
 */
export function loadDocument(
  sources: readonly DocumentSource[],
  options: { env?: Readonly<Record<string, string | undefined>> } = {},
): LoadedDocument {
  const issues: DocumentIssue[] = []
  const parsed: ParsedSource[] = []
  const merged: Record<string, unknown[]> = Object.fromEntries(DOCUMENT_LISTS.map((list) => [list, []]))
  const origins: Record<string, Origin[]> = Object.fromEntries(DOCUMENT_LISTS.map((list) => [list, []]))
  let version: unknown

  for (const { file, text } of sources) {
    const lines = new LineCounter()
    const yaml = parseDocument(text, { lineCounter: lines, prettyErrors: false })
    const source = { file, yaml, lines }
    parsed.push(source)
    if (yaml.errors.length > 0) {
      for (const error of yaml.errors) {
        const { line, col } = lines.linePos(error.pos[0])
        issues.push({ file, line, column: col, path: '', message: error.message.split('\n')[0]! })
      }
      continue
    }
    const raw = yaml.toJS() as unknown
    const value = options.env ? resolveEnv(raw, options.env) : raw
    if (options.env) {
      for (const issue of unresolvedIssues(raw, options.env, source)) issues.push(issue)
    }
    const checked = guardDocument.safeParse(value ?? {})
    if (!checked.success) {
      for (const issue of checked.error.issues) issues.push(issueAt(source, issue))
      continue
    }
    version = checked.data.version
    for (const list of DOCUMENT_LISTS) {
      checked.data[list].forEach((item, index) => {
        merged[list]!.push(item)
        origins[list]!.push({ source, index })
      })
    }
  }

  const locate = (path: readonly PropertyKey[], message: string): DocumentIssue => {
    const [list, index, ...rest] = path
    const origin = origins[String(list)]?.[Number(index)]
    const source = origin?.source ?? parsed[0]
    if (!source) return { file: '', line: 1, column: 1, path: pathText(path), message }
    return positionOf(source, origin ? [list!, origin.index, ...rest] : path, pathText(path), message)
  }

  if (issues.length > 0 || sources.length === 0) {
    if (sources.length === 0) issues.push({ file: '', line: 1, column: 1, path: '', message: 'no document files' })
    return { document: undefined, issues, locate }
  }
  const document = { version, ...merged } as GuardDocument
  for (const problem of referenceProblems(document)) issues.push(locate(problem.path, problem.message))
  return { document: issues.length === 0 ? document : undefined, issues, locate }
}

function unresolvedIssues(
  value: unknown,
  env: Readonly<Record<string, string | undefined>>,
  source: ParsedSource,
): DocumentIssue[] {
  const found: DocumentIssue[] = []
  const visit = (item: unknown, path: PropertyKey[]) => {
    if (typeof item === 'string') {
      for (const match of item.matchAll(ENV_REFERENCE)) {
        if (env[match[1]!] === undefined) {
          found.push(positionOf(source, path, pathText(path), `environment variable ${match[1]} is not set`))
        }
      }
    } else if (Array.isArray(item)) {
      for (const [index, child] of item.entries()) visit(child, [...path, index])
    } else if (item && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) visit(child, [...path, key])
    }
  }
  visit(value, [])
  return found
}

function issueAt(source: ParsedSource, issue: z.core.$ZodIssue): DocumentIssue {
  const path = issue.path
  // An unknown field is reported on its object; pointing at the field itself is what helps.
  const target = issue.code === 'unrecognized_keys' && issue.keys[0] ? [...path, issue.keys[0]] : path
  return positionOf(source, target, pathText(target), issue.message)
}

/** The deepest node of the path that exists, and for a map's key, the key rather than its value. */
function positionOf(source: ParsedSource, path: readonly PropertyKey[], where: string, message: string): DocumentIssue {
  let node: unknown = source.yaml.contents
  let offset = isNode(node) ? (node.range?.[0] ?? 0) : 0
  for (const step of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(step))
      if (!pair) break
      const keyNode = pair.key
      offset = isNode(keyNode) ? (keyNode.range?.[0] ?? offset) : offset
      node = pair.value
      continue
    }
    if (isNode(node) && 'items' in node && Array.isArray(node.items) && typeof step === 'number') {
      const item: unknown = node.items[step]
      if (!isNode(item)) break
      offset = item.range?.[0] ?? offset
      node = item
      continue
    }
    break
  }
  const { line, col } = source.lines.linePos(offset)
  return { file: source.file, line, column: col, path: where, message }
}

function pathText(path: readonly PropertyKey[]): string {
  return path
    .map((step) => (typeof step === 'number' ? `[${step}]` : `.${String(step)}`))
    .join('')
    .replace(/^\./, '')
}

type Problem = { path: PropertyKey[]; message: string }

/** Duplicate ids, references to ids no entry has, groups nesting in a cycle and dependency cycles. */
export function referenceProblems(document: GuardDocument): Problem[] {
  const problems: Problem[] = []
  const idsOf = (lists: readonly (keyof GuardDocument)[], label: string) => {
    const seen = new Set<string>()
    for (const list of lists) {
      const entries = document[list] as { id: string }[]
      entries.forEach((entry, index) => {
        if (seen.has(entry.id))
          problems.push({ path: [list, index, 'id'], message: `duplicate ${label} id ${entry.id}` })
        seen.add(entry.id)
      })
    }
    return seen
  }
  const tags = idsOf(['tags'], 'tag')
  const groups = idsOf(['groups'], 'group')
  const channels = idsOf(['channels'], 'channel')
  idsOf(['routes'], 'route')
  const monitors = idsOf(['domains', 'services', 'heartbeats', 'synthetics'], 'monitor')
  idsOf(['maintenance'], 'maintenance window')
  idsOf(['statusPages'], 'status page')

  const expect = (known: Set<string>, label: string, path: PropertyKey[], ids: readonly string[] | undefined) => {
    ids?.forEach((id, index) => {
      if (!known.has(id)) problems.push({ path: [...path, index], message: `unknown ${label} id ${id}` })
    })
  }
  document.groups.forEach((group, index) => {
    if (group.parent !== undefined && !groups.has(group.parent)) {
      problems.push({ path: ['groups', index, 'parent'], message: `unknown group id ${group.parent}` })
    }
  })
  document.routes.forEach((route, index) => {
    expect(channels, 'channel', ['routes', index, 'channels'], route.channels)
    expect(monitors, 'monitor', ['routes', index, 'selector', 'monitors'], route.selector?.monitors)
  })
  for (const list of ['domains', 'services', 'heartbeats', 'synthetics'] as const) {
    document[list].forEach((monitor, index) => {
      expect(tags, 'tag', [list, index, 'tags'], monitor.tags)
      expect(monitors, 'monitor', [list, index, 'dependsOn'], monitor.dependsOn)
      expect(channels, 'channel', [list, index, 'channels'], monitor.channels)
      if (monitor.group !== undefined && !groups.has(monitor.group)) {
        problems.push({ path: [list, index, 'group'], message: `unknown group id ${monitor.group}` })
      }
    })
  }
  document.maintenance.forEach((window, index) => {
    expect(monitors, 'monitor', ['maintenance', index, 'monitors'], window.monitors)
  })
  document.statusPages.forEach((page, index) => {
    page.components.forEach((component, position) => {
      const path = ['statusPages', index, 'components', position]
      if ('monitor' in component && !monitors.has(component.monitor)) {
        problems.push({ path: [...path, 'monitor'], message: `unknown monitor id ${component.monitor}` })
      }
      if ('group' in component && !groups.has(component.group)) {
        problems.push({ path: [...path, 'group'], message: `unknown group id ${component.group}` })
      }
    })
  })
  problems.push(...cycles(document))
  return problems
}

/** A monitor depending on itself through others, or a group nesting in itself, named once per cycle. */
function cycles(document: GuardDocument): Problem[] {
  const problems: Problem[] = []
  const monitorPaths = new Map<string, PropertyKey[]>()
  const edges = new Map<string, readonly string[]>()
  for (const list of ['domains', 'services', 'heartbeats', 'synthetics'] as const) {
    document[list].forEach((monitor, index) => {
      monitorPaths.set(monitor.id, [list, index, 'dependsOn'])
      edges.set(monitor.id, monitor.dependsOn ?? [])
    })
  }
  document.groups.forEach((group, index) => {
    monitorPaths.set(`group:${group.id}`, ['groups', index, 'parent'])
    edges.set(`group:${group.id}`, group.parent ? [`group:${group.parent}`] : [])
  })
  const state = new Map<string, 'open' | 'done'>()
  const visit = (node: string, trail: string[]) => {
    state.set(node, 'open')
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === 'open') {
        const start = trail.indexOf(next)
        const cycle = [...(start >= 0 ? trail.slice(start) : []), node, next].map((id) => id.replace(/^group:/, ''))
        const label = node.startsWith('group:') ? 'groups nest in a cycle' : 'dependency cycle'
        problems.push({ path: monitorPaths.get(node)!, message: `${label}: ${cycle.join(' → ')}` })
      } else if (!state.has(next) && edges.has(next)) visit(next, [...trail, node])
    }
    state.set(node, 'done')
  }
  for (const node of edges.keys()) if (!state.has(node)) visit(node, [])
  return problems
}
