import { readFile, writeFile } from 'node:fs/promises'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { guardJsonSchema } from './json-schema.ts'

const FILE = new URL('../../../../docs/guard.schema.json', import.meta.url)

describe('the published JSON Schema of guard.yaml', () => {
  it('is the one the zod schemas generate (GUARD_WRITE_SCHEMA=1 rewrites docs/guard.schema.json, then biome format)', async () => {
    const schema = guardJsonSchema()
    if (process.env.GUARD_WRITE_SCHEMA === '1') await writeFile(FILE, `${JSON.stringify(schema, null, 2)}\n`)
    expect(JSON.parse(await readFile(FILE, 'utf8'))).toEqual(schema)
  })

  it('accepts a document with references and refuses a create body field of the wrong type', () => {
    const validate = new Ajv2020({ strict: false }).compile(guardJsonSchema())
    const document = {
      version: 1,
      tags: [{ id: 'prod' }],
      domains: [{ id: 'shop', url: 'https://shop.example.com', tags: ['prod'], checkInterval: 60 }],
    }
    expect(validate(document)).toBe(true)
    expect(
      validate({ ...document, domains: [{ id: 'shop', url: 'https://shop.example.com', checkInterval: 'often' }] }),
    ).toBe(false)
  })
})
