import { writeFile } from 'node:fs/promises'
import {
  type DocumentIssue,
  documentYaml,
  envReferences,
  type GuardDocumentInput,
  loadDocument,
  readDocumentSources,
} from '@guard/shared/config-as-code'
import { answerHelp, COLLECTOR, fetchService, parseArgs, UsageError } from '../cli-kit.ts'
import { collectorApiAccess } from './api-access.ts'

export const configUsage = `Usage: guard validate -f FILE|DIR
       guard plan -f FILE|DIR [--prune] [--prune-unmanaged] [--json]
       guard apply -f FILE|DIR [--prune] [--prune-unmanaged] [--json]
       guard export [-o FILE] [--json]

Monitoring as code: a guard.yaml document (or a directory of *.yaml files, merged) describes the
organization's monitors, tags, groups, channels, routes, maintenance windows and status pages.
validate checks it offline (schema and references, with file:line:column); plan shows what apply
would change; apply makes it (--prune also deletes what the file does not name, only objects
managed by code unless --prune-unmanaged); export writes the organization as a document.
\${env:NAME} in the file is read from this environment before anything is sent.
Exit status: validate 0 valid, 1 invalid; plan 0 no change, 2 changes, 1 error (like
terraform plan -detailed-exitcode); apply 0 done, 1 a change failed. Env: GUARD_COLLECTOR_URL,
GUARD_API_KEY (default: the collector and key in GUARD_DATA_DIR/credentials.json).`

export type ConfigCommand = 'validate' | 'plan' | 'apply' | 'export'

type Change = {
  action: 'create' | 'update' | 'delete'
  kind: string
  id: string
  changes: { field: string; from: unknown; to: unknown }[]
}
type Print = (text: string) => void

const colours = (enabled: boolean) => {
  const paint = (code: number) => (text: string) => (enabled ? `\u001b[${code}m${text}\u001b[0m` : text)
  return { green: paint(32), yellow: paint(33), red: paint(31) }
}

const issueLine = (issue: DocumentIssue) =>
  `${issue.file}:${issue.line}:${issue.column}: ${issue.path ? `${issue.path}: ` : ''}${issue.message}`

/** The document of -f, resolved from the environment; its problems printed with their positions. */
async function readDocument(path: string, env: NodeJS.ProcessEnv, print: Print, resolve: boolean) {
  const sources = await readDocumentSources(path).catch((error: Error) => {
    throw new UsageError(`-f ${path}: ${error.message}`, 'config')
  })
  const loaded = loadDocument(sources, resolve ? { env } : {})
  for (const issue of loaded.issues) print(issueLine(issue))
  return loaded.document
}

/** The plan as a readable diff: + create, ~ update with each changed field, - delete. */
export function describePlan(changes: readonly Change[], colour: boolean): string {
  const { green, yellow, red } = colours(colour)
  const show = (value: unknown) => (value === undefined ? 'null' : JSON.stringify(value))
  const lines = changes.flatMap((change) => {
    const name = `${change.kind} ${change.id}`
    if (change.action === 'create') return [green(`+ ${name}`)]
    if (change.action === 'delete') return [red(`- ${name}`)]
    return [
      yellow(`~ ${name}`),
      ...change.changes.map((field) => `    ${field.field}: ${show(field.from)} → ${show(field.to)}`),
    ]
  })
  const count = (action: string) => changes.filter((change) => change.action === action).length
  lines.push(
    changes.length === 0
      ? 'No changes: the organization matches the document.'
      : `Plan: ${count('create')} to create, ${count('update')} to change, ${count('delete')} to delete.`,
  )
  return lines.join('\n')
}

/** `guard validate|plan|apply|export …`: returns the exit status. */
export async function runConfigCommand(
  command: ConfigCommand,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  print: Print = (text) => process.stdout.write(`${text}\n`),
  colour = process.stdout.isTTY === true && env.NO_COLOR === undefined,
): Promise<number> {
  answerHelp(args, configUsage)
  const { values } = parseArgs({
    args,
    options: {
      file: { type: 'string', short: 'f' },
      output: { type: 'string', short: 'o' },
      prune: { type: 'boolean' },
      'prune-unmanaged': { type: 'boolean' },
      json: { type: 'boolean' },
    },
    usage: configUsage,
    scope: command,
  })
  if (command === 'export') return exportDocument(values.output, values.json === true, env, print)
  if (!values.file) throw new UsageError('-f FILE or DIR is required', command)
  if (command === 'validate') {
    const document = await readDocument(values.file, env, print, false)
    if (!document) return 1
    const unset = envReferences(document).filter((name) => env[name] === undefined)
    if (unset.length > 0) print(`note: not set here: ${unset.join(', ')} (plan and apply need them)`)
    print(`${values.file}: valid`)
    return 0
  }
  const document = await readDocument(values.file, env, print, true)
  if (!document) return 1
  const { base, apiKey } = await collectorApiAccess(env, command)
  const url = new URL(`/api/config/${command}`, base)
  if (values.prune) url.searchParams.set('prune', 'true')
  if (values['prune-unmanaged']) url.searchParams.set('pruneUnmanaged', 'true')
  const response = await fetchService(COLLECTOR, url, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(document),
    signal: AbortSignal.timeout(600_000),
  })
  const answer = (await response.json()) as {
    data?: { changes?: Change[]; applied?: Change[]; failed?: (Change & { error: string })[] }
    message?: string
  }
  if (!response.ok || !answer.data) {
    print(`${command} refused (${response.status}): ${answer.message ?? JSON.stringify(answer)}`)
    return 1
  }
  if (values.json) print(JSON.stringify(answer.data, null, 2))
  if (command === 'plan') {
    const changes = answer.data.changes ?? []
    if (!values.json) print(describePlan(changes, colour))
    return changes.length > 0 ? 2 : 0
  }
  const failed = answer.data.failed ?? []
  if (!values.json) {
    print(describePlan(answer.data.applied ?? [], colour).replace(/^Plan:/m, 'Applied:'))
    for (const failure of failed) print(`failed: ${failure.action} ${failure.kind} ${failure.id}: ${failure.error}`)
  }
  return failed.length > 0 ? 1 : 0
}

async function exportDocument(output: string | undefined, json: boolean, env: NodeJS.ProcessEnv, print: Print) {
  const { base, apiKey } = await collectorApiAccess(env, 'export')
  const response = await fetchService(COLLECTOR, new URL('/api/config/export', base), {
    headers: { authorization: `Bearer ${apiKey}` },
    signal: AbortSignal.timeout(600_000),
  })
  const answer = (await response.json()) as {
    data?: { document: GuardDocumentInput; secrets: { variable: string; kind: string; id: string; field: string }[] }
    message?: string
  }
  if (!response.ok || !answer.data) {
    print(`export refused (${response.status}): ${answer.message ?? JSON.stringify(answer)}`)
    return 1
  }
  const text = json ? `${JSON.stringify(answer.data.document, null, 2)}\n` : documentYaml(answer.data.document)
  if (output) await writeFile(output, text)
  else print(text.trimEnd())
  if (answer.data.secrets.length > 0) {
    // Stderr, so `guard export > guard.yaml` keeps the file a document.
    process.stderr.write(
      `Write-only values are environment references; set these before plan or apply:\n${answer.data.secrets
        .map((secret) => `  ${secret.variable}  (${secret.kind} ${secret.id} ${secret.field})`)
        .join('\n')}\n`,
    )
  }
  return 0
}
