export { documentYaml } from './document-yaml.ts'
export { formatReport, importUptimeKuma } from './uptime-kuma/index.ts'
