import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadDocument, readDocumentSources, resolveEnv } from './load.ts'

const text = (lines: string[]) => `${lines.join('\n')}\n`
/** How a document names an environment variable. */
const env = (name: string) => `\${env:${name}}`

describe('loadDocument', () => {
  it('reads a document with its references and fills the lists left out', () => {
    const loaded = loadDocument([
      {
        file: 'guard.yaml',
        text: text([
          'version: 1',
          'tags: [{ id: prod }]',
          'domains:',
          '  - id: shop',
          '    url: https://shop.example.com',
          '    tags: [prod]',
          '    dependsOn: [db]',
          'services:',
          '  - id: db',
          '    name: DB',
          '    protocol: tcp',
        ]),
      },
    ])
    expect(loaded.issues).toEqual([])
    expect(loaded.document?.domains[0]).toMatchObject({ id: 'shop', url: 'https://shop.example.com', tags: ['prod'] })
    expect(loaded.document?.maintenance).toEqual([])
  })

  it('points a schema error at the line and column of the field', () => {
    const loaded = loadDocument([
      { file: 'guard.yaml', text: text(['version: 1', 'domains:', '  - id: shop', '  - id: Not_Valid', '    url: x']) },
    ])
    expect(loaded.issues).toEqual([
      expect.objectContaining({ file: 'guard.yaml', line: 4, column: 5, path: 'domains[1].id' }),
    ])
  })

  it('points an unknown field at the field itself', () => {
    const loaded = loadDocument([
      { file: 'a.yaml', text: text(['version: 1', 'tags:', '  - id: prod', '    colour: red']) },
    ])
    expect(loaded.issues[0]).toMatchObject({ line: 4, column: 5, path: 'tags[0].colour' })
  })

  it('reports a YAML syntax error with its position', () => {
    const loaded = loadDocument([{ file: 'a.yaml', text: 'version: 1\ndomains: [\n' }])
    expect(loaded.issues[0]).toMatchObject({ file: 'a.yaml', line: 3 })
  })

  it('names a dependency cycle', () => {
    const loaded = loadDocument([
      {
        file: 'a.yaml',
        text: text([
          'version: 1',
          'services:',
          '  - { id: a, dependsOn: [b] }',
          '  - { id: b, dependsOn: [c] }',
          '  - { id: c, dependsOn: [a] }',
        ]),
      },
    ])
    expect(loaded.issues).toEqual([
      expect.objectContaining({ line: 5, column: 14, message: 'dependency cycle: a → b → c → a' }),
    ])
  })

  it('names unknown references and duplicate ids across monitor kinds where they are written', () => {
    const loaded = loadDocument([
      {
        file: 'one.yaml',
        text: text(['version: 1', 'domains:', '  - id: shop', '    url: https://a.example', '    dependsOn: [db]']),
      },
      {
        file: 'two.yaml',
        text: text([
          'version: 1',
          'services:',
          '  - id: db',
          '    dependsOn: [shop]',
          '  - id: shop',
          '    group: nowhere',
        ]),
      },
    ])
    expect(loaded.document).toBeUndefined()
    expect(loaded.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: 'two.yaml', line: 5, message: 'duplicate monitor id shop' }),
        expect.objectContaining({ file: 'two.yaml', line: 6, column: 5, message: 'unknown group id nowhere' }),
      ]),
    )
  })

  it('resolves environment references and names the ones not set', () => {
    const source = {
      file: 'a.yaml',
      text: text([
        'version: 1',
        'channels:',
        '  - id: ops',
        '    name: Ops',
        '    provider: slack',
        `    config: { webhookUrl: "${env('SLACK_URL')}", token: "${env('MISSING')}" }`,
      ]),
    }
    const loaded = loadDocument([source], { env: { SLACK_URL: 'https://hooks.example/1' } })
    expect(loaded.issues).toEqual([
      expect.objectContaining({
        line: 6,
        path: 'channels[0].config.token',
        message: 'environment variable MISSING is not set',
      }),
    ])
    expect(resolveEnv({ a: [`x ${env('A')} y`] }, { A: '1' })).toEqual({ a: ['x 1 y'] })
  })
})

describe('readDocumentSources', () => {
  it('reads a directory’s YAML files in name order', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'guard-config-'))
    await mkdir(join(directory, 'sub'))
    await writeFile(join(directory, 'b.yaml'), 'version: 1\n')
    await writeFile(join(directory, 'a.yml'), 'version: 1\n')
    await writeFile(join(directory, 'notes.txt'), 'no')
    const sources = await readDocumentSources(directory)
    expect(sources.map((source) => source.file)).toEqual([join(directory, 'a.yml'), join(directory, 'b.yaml')])
  })
})
