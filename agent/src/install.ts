import { writeFile } from 'node:fs/promises'

export interface InstallOptions {
  /** Where the unit goes; /etc/systemd/system/guard-agent.service by default. */
  unitPath: string
  /** The command line systemd runs (node, the guard CLI, `agent`). */
  execStart: string
  configPath: string
  user: string
}

/**
 * A systemd unit running the agent as an unprivileged user with the sandboxing systemd offers:
 * it reads /proc and the package database, writes only its spool (StateDirectory).
 */
export function systemdUnit(options: Omit<InstallOptions, 'unitPath'>): string {
  return `[Unit]
Description=Guard device agent
Documentation=https://github.com/guard/guard#device-agent
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=${options.user}
Group=${options.user}
Environment=GUARD_AGENT_CONFIG=${options.configPath}
ExecStart=${options.execStart}
Restart=always
RestartSec=5
StateDirectory=guard-agent
StateDirectoryMode=0700
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=read-only
PrivateTmp=yes
PrivateDevices=yes
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
RestrictSUIDSGID=yes
RestrictRealtime=yes
RestrictNamespaces=yes
LockPersonality=yes
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK
CapabilityBoundingSet=
AmbientCapabilities=
SystemCallArchitectures=native
MemoryMax=200M
CPUQuota=20%

[Install]
WantedBy=multi-user.target
`
}

/** Writes the unit and returns the commands that create the user and enable the service. */
export async function installSystemdUnit(options: InstallOptions): Promise<string[]> {
  await writeFile(options.unitPath, systemdUnit(options), { mode: 0o644 })
  return [
    `id ${options.user} >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin ${options.user}`,
    `chown ${options.user}:${options.user} ${options.configPath} && chmod 600 ${options.configPath}`,
    'systemctl daemon-reload',
    'systemctl enable --now guard-agent',
    'journalctl -u guard-agent -f',
  ]
}
