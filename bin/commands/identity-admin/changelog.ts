import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { parseIdentityEnv, withIdentityStore } from '@guard/identity'
import { newId } from '@guard/shared'
// Not re-exported by @guard/identity's index: only this command needs it.
import { addChangelogEntries } from '../../../identity/src/services/changelog/add.ts'
import { readJson } from './catalog.ts'
import { exitOnGuardError, helpRequested, printJson, usageError } from './output.ts'

const USAGE = `guard identity changelog add --app SLUG --release VERSION --name TITLE (--content MARKDOWN | --content-file FILE.md) [--id ID] [--app-color COLOR] [--cover-image-url URL] [--created-time ISO]
guard identity changelog import FILE.json   (an array of entries; an entry with an existing id is replaced)`

export async function changelogCommand(args: string[]): Promise<void> {
  helpRequested(args, USAGE)
  const [action, ...rest] = args
  const entries =
    action === 'import' ? await importArgs(rest) : action === 'add' ? [await addArgs(rest)] : usageError(USAGE)
  printJson(
    await withIdentityStore(parseIdentityEnv(), (sql) => addChangelogEntries(sql, entries)).catch(exitOnGuardError),
  )
}

async function importArgs(rest: string[]): Promise<unknown> {
  const [file, ...extra] = rest
  if (!file || extra.length > 0) usageError(USAGE)
  return readJson(file)
}

async function addArgs(rest: string[]): Promise<Record<string, unknown>> {
  // `--release`, not `--version`: parseArgs users expect --version to print the tool's version.
  const { values } = parseArgs({
    args: rest,
    options: {
      app: { type: 'string' },
      release: { type: 'string' },
      name: { type: 'string' },
      content: { type: 'string' },
      'content-file': { type: 'string' },
      id: { type: 'string' },
      'app-color': { type: 'string' },
      'cover-image-url': { type: 'string' },
      'created-time': { type: 'string' },
    },
  })
  const contentMd = values['content-file'] ? await readFile(values['content-file'], 'utf8') : values.content
  if (!values.app || !values.release || !values.name || contentMd === undefined) usageError(USAGE)
  return {
    id: values.id ?? newId(),
    name: values.name,
    app: values.app,
    version: values.release,
    contentMd,
    createdTime: values['created-time'] ?? new Date().toISOString(),
    ...(values['app-color'] ? { appColor: values['app-color'] } : {}),
    ...(values['cover-image-url'] ? { coverImageUrl: values['cover-image-url'] } : {}),
  }
}
