/**
 * `guard identity <group> <action> [options]`: operator commands that print JSON. Each group
 * (users, orgs, clients, keys, catalog, changelog, …) lives in its own file and registers here.
 */
export type AdminCommand = (args: string[]) => Promise<void>

export const identityAdminGroups: Record<string, AdminCommand> = {}

export async function runIdentityAdmin(args: string[]): Promise<void> {
  const [group, ...rest] = args
  const command = group ? identityAdminGroups[group] : undefined
  if (!command) {
    const known = Object.keys(identityAdminGroups).sort().join(', ') || 'none yet'
    process.stderr.write(`guard identity: unknown command '${group}' (known: ${known})\n`)
    process.exit(2)
  }
  await command(rest)
}
