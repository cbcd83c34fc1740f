import { describe, expect, it } from 'vitest'
import { fileNamePart } from './csv.ts'

describe('fileNamePart', () => {
  it('keeps a name’s ASCII letters and digits, hyphens between, so nothing of it can break the header', () => {
    expect(fileNamePart('Backup "db"; nightly\r\nmain', 'x')).toBe('backup-db-nightly-main')
    expect(fileNamePart('Sauvegarde d’été', 'x')).toBe('sauvegarde-d-ete')
  })

  it('falls back when nothing is left, and stops at 60 characters without a trailing hyphen', () => {
    expect(fileNamePart('„…“', 'heartbeat')).toBe('heartbeat')
    const long = fileNamePart(`${'a'.repeat(59)} b`, 'x')
    expect(long).toBe('a'.repeat(59))
  })
})
