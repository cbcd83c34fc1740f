import { writeFile } from 'node:fs/promises'
import { relative } from 'node:path'
import { stringify } from 'yaml'
import type { ImportResult } from '../../shared/src/config-as-code/import/import-result.ts'
import { CommandFailed, EXIT, type Io } from '../cli-kit.ts'

const where = (source: string) => relative(process.cwd(), source) || '.'

/** The document with what it lacks as a comment on top, so the review sees both in one file. */
export function importedYaml(result: ImportResult, origin: string): string {
  const lines = [`Imported from ${origin} by guard import; review it, then guard plan -f and guard apply -f.`]
  if (result.secrets.length > 0) {
    lines.push('', 'Environment variables it reads (set them where plan and apply run):')
    for (const secret of result.secrets) lines.push(`  ${secret.name}  (${where(secret.source)}: ${secret.item})`)
  }
  if (result.unmapped.length > 0) {
    lines.push('', 'Not carried over:')
    for (const item of result.unmapped) lines.push(`  ${where(item.source)}: ${item.item}: ${item.reason}`)
  }
  const header = lines.map((line) => (line === '' ? '#' : `# ${line}`)).join('\n')
  return `${header}\n${stringify(result.document, { lineWidth: 0 })}`
}

function counts(result: ImportResult): string {
  const { document } = result
  const parts: Array<[number | undefined, string]> = [
    [document.domains?.length, 'domains'],
    [document.services?.length, 'services'],
    [document.heartbeats?.length, 'heartbeats'],
    [document.channels?.length, 'channels'],
    [document.groups?.length, 'groups'],
    [document.maintenance?.length, 'maintenance windows'],
  ]
  const made = parts.filter(([count]) => count).map(([count, what]) => `${count} ${what}`)
  return made.length > 0 ? made.join(', ') : 'nothing'
}

/**
 * Prints or writes an import: the YAML (or, with --json, the result as JSON) to stdout or
 * --output, a one-line summary on stderr. Exit 0 even when items are not carried: the
 * document is for review, and the list says what to add by hand.
 */
export async function deliverImport(
  result: ImportResult,
  options: { origin: string; output?: string | undefined; json?: boolean | undefined },
  io: Io,
): Promise<number> {
  const text = options.json ? `${JSON.stringify(result, null, 2)}\n` : importedYaml(result, options.origin)
  if (options.output) {
    await writeFile(options.output, text, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST')
        throw new CommandFailed(`${options.output} exists; give another --output or remove it`, EXIT.usage)
      throw error
    })
  } else io.stdout(text)
  const notCarried =
    result.unmapped.length === 0
      ? 'everything carried'
      : `${result.unmapped.length} items not carried (listed in the file)`
  const variables = result.secrets.length === 0 ? '' : `, ${result.secrets.length} environment variables to set`
  io.stderr(`imported ${counts(result)}; ${notCarried}${variables}${options.output ? ` → ${options.output}` : ''}\n`)
  return EXIT.ok
}

/** A source that does not exist or cannot be read, worded for the operator. */
export function unreadable(source: string, error: unknown): never {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'ENOENT') throw new CommandFailed(`${source}: no such file or directory`, EXIT.usage)
  if (code === 'EACCES') throw new CommandFailed(`${source}: permission denied`, EXIT.failed)
  throw error
}
