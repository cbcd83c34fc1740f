import { readFile } from 'node:fs/promises'
import { parseIdentityEnv, withIdentityStore } from '@guard/identity'
import { newId } from '@guard/shared'
// Not re-exported by @guard/identity's index: only this command needs it.
import { addChangelogEntries } from '../../../identity/src/services/changelog/add.ts'
import { parseArgs, pickAction, UsageError } from '../../cli-kit.ts'
import { readJson } from './catalog.ts'
import { asCommandFailed, helpRequested, printJson, requireOptions, requirePositionals } from './output.ts'

const USAGE = `guard identity changelog add --app SLUG --release VERSION --name TITLE (--content MARKDOWN | --content-file FILE.md) [--id ID] [--app-color COLOR] [--cover-image-url URL] [--created-time ISO]
guard identity changelog import FILE.json   (an array of entries; an entry with an existing id is replaced)`

export async function changelogCommand(args: string[]): Promise<void> {
  helpRequested(args, USAGE)
  const [word, ...rest] = args
  const action = pickAction(word, ['add', 'import'], 'identity changelog')
  const entries = action === 'import' ? await importArgs(rest) : [await addArgs(rest)]
  printJson(
    await withIdentityStore(parseIdentityEnv(), (sql) => addChangelogEntries(sql, entries)).catch(asCommandFailed),
  )
}

async function importArgs(rest: string[]): Promise<unknown> {
  requirePositionals('changelog', rest, ['FILE.json'])
  return readJson(rest[0] as string)
}

async function addArgs(rest: string[]): Promise<Record<string, unknown>> {
  // `--release`, not `--version`: parseArgs users expect --version to print the tool's version.
  const { values } = parseArgs({
    args: rest,
    usage: USAGE,
    scope: 'identity changelog',
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
  requireOptions('changelog', values, ['app', 'release', 'name'])
  const contentMd = values['content-file'] ? await readFile(values['content-file'], 'utf8') : values.content
  if (!values.app || !values.release || !values.name || contentMd === undefined) {
    throw new UsageError('missing --content or --content-file', 'identity changelog')
  }
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
