/**
 * `guard identity <group> <action> [options]`: operator commands that print JSON. Each group
 * (users, orgs, clients, keys, catalog, changelog, …) lives in its own file and registers here.
 */
import { didYouMean, UsageError } from '../../cli-kit.ts'

export type AdminCommand = (args: string[]) => Promise<void>

export const identityAdminGroups: Record<string, AdminCommand> = {
  users: async (args) => (await import('./users.ts')).usersCommand(args),
  orgs: async (args) => (await import('./orgs.ts')).orgsCommand(args),
  clients: async (args) => (await import('./clients.ts')).clientsCommand(args),
  keys: async (args) => (await import('./keys.ts')).keysCommand(args),
  audit: async (args) => (await import('./audit.ts')).auditCommand(args),
  catalog: async (args) => (await import('./catalog.ts')).catalogCommand(args),
  changelog: async (args) => (await import('./changelog.ts')).changelogCommand(args),
}

export async function runIdentityAdmin(args: string[]): Promise<void> {
  const [group, ...rest] = args
  const command = group ? identityAdminGroups[group] : undefined
  if (!group || !command) {
    const known = Object.keys(identityAdminGroups).sort()
    const hint = didYouMean(group ?? '', known) || ` (known: ${known.join(', ')})`
    throw new UsageError(`unknown command '${group}'${hint}`, 'identity')
  }
  await command(rest)
}
