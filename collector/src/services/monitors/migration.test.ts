import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { migrate } from '@guard/shared'
import { openTestRelationalStore } from '@guard/shared/testing'
import { describe, expect, it } from 'vitest'

const migrations = fileURLToPath(new URL('../../../migrations/postgres', import.meta.url))

describe('migration 010: domains and services become one monitors table', () => {
  it('carries every existing domain and service over with its check target, and keeps the old names readable', async () => {
    const sql = await openTestRelationalStore()
    const before = await mkdtemp(join(tmpdir(), 'guard-migrations-'))
    try {
      for (const file of ['001_monitoring.sql', '002_state_services_limits.sql']) {
        await cp(join(migrations, file), join(before, file))
      }
      await migrate(sql, { service: 'collector', directory: before })
      await sql.query(
        `INSERT INTO monitoring.domains (id, organization_id, url, name, check_interval, timeout_seconds, is_api, tags)
         VALUES ('d1', 'org', 'https://example.org/health', 'Example', 60, 30, true, ARRAY['prod'])`,
      )
      await sql.query(
        `INSERT INTO monitoring.services (id, organization_id, name, protocol, host, port, path, check_interval, timeout_seconds)
         VALUES ('s1', 'org', 'web', 'https', '::1', 8443, '/status', 60, 30),
                ('s2', 'org', 'db', 'tcp', 'db.example.org', 5432, NULL, 60, 30),
                ('s3', 'org', 'ns', 'dns', 'example.org', NULL, NULL, 60, 30),
                ('s4', 'org', 'cert', 'tls', 'example.org', NULL, NULL, 60, 30)`,
      )
      await migrate(sql, { service: 'collector', directory: migrations })
      const { rows } = await sql.query<{ id: string; kind: string; protocol: string | null; target: unknown }>(
        'SELECT id, kind, protocol, target FROM monitoring.monitors ORDER BY id',
      )
      expect(rows).toEqual([
        {
          id: 'd1',
          kind: 'domain',
          protocol: null,
          target: { kind: 'http', url: 'https://example.org/health', method: 'GET' },
        },
        {
          id: 's1',
          kind: 'service',
          protocol: 'https',
          target: { kind: 'http', url: 'https://[::1]:8443/status', method: 'GET' },
        },
        { id: 's2', kind: 'service', protocol: 'tcp', target: { kind: 'tcp', host: 'db.example.org', port: 5432 } },
        {
          id: 's3',
          kind: 'service',
          protocol: 'dns',
          target: { kind: 'dns', hostname: 'example.org', recordType: 'A' },
        },
        { id: 's4', kind: 'service', protocol: 'tls', target: { kind: 'tls', host: 'example.org' } },
      ])
      const domains = await sql.query('SELECT id, url, is_api, tags FROM monitoring.domains')
      expect(domains.rows).toEqual([{ id: 'd1', url: 'https://example.org/health', is_api: true, tags: ['prod'] }])
      const services = await sql.query('SELECT id, host, port, path FROM monitoring.services ORDER BY id')
      expect(services.rows).toEqual([
        { id: 's1', host: '::1', port: 8443, path: '/status' },
        { id: 's2', host: 'db.example.org', port: 5432, path: null },
        { id: 's3', host: 'example.org', port: null, path: null },
        { id: 's4', host: 'example.org', port: null, path: null },
      ])
    } finally {
      await rm(before, { recursive: true, force: true })
      await sql.close()
    }
  })
})
