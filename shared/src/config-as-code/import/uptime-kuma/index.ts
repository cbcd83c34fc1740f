export { importUptimeKuma, mapUptimeKuma, readUptimeKuma } from './import.ts'
export { formatReport, type ImportedDocument, type ImportResult, type Unmapped } from './report.ts'
