export { documentYaml } from '../write.ts'
export { formatReport, importUptimeKuma } from './uptime-kuma/index.ts'
