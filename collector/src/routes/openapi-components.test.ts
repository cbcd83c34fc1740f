import { describe, expect, it } from 'vitest'
import { keepReferencedComponents } from './openapi-components.ts'

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const object = (properties: Record<string, unknown>) => ({ type: 'object', properties })

describe('keepReferencedComponents', () => {
  const document = {
    openapi: '3.1.0',
    paths: {
      '/a': {
        post: { requestBody: { content: { 'application/json': { schema: object({ config: ref('ConfigInput') }) } } } },
        get: { responses: { 200: { content: { 'application/json': { schema: ref('View') } } } } },
      },
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        ConfigInput: object({ nested: ref('NestedInput') }),
        Config: object({ unused: { type: 'string' } }),
        NestedInput: object({ n: { type: 'number' } }),
        View: object({ a: ref('Shared') }),
        ViewInput: object({ unused: { type: 'string' } }),
        Shared: { type: 'string' },
        SharedInput: { type: 'string' },
        Orphan: { type: 'boolean' },
      },
    },
  }

  it('keeps the components the paths reach, through other components too, and drops the rest', () => {
    const kept = keepReferencedComponents(document)
    expect(Object.keys(kept.components.schemas).sort()).toEqual(['Config', 'Nested', 'Shared', 'View'])
    expect(kept.components.securitySchemes).toEqual(document.components.securitySchemes)
  })

  it('names an input side after its id when no output side is in use, and follows its references', () => {
    const kept = keepReferencedComponents(document)
    expect(kept.components.schemas.Config).toEqual(object({ nested: ref('Nested') }))
    expect(kept.paths['/a'].post.requestBody.content['application/json'].schema).toEqual(
      object({ config: ref('Config') }),
    )
    expect(kept.paths['/a'].get.responses[200].content['application/json'].schema).toEqual(ref('View'))
  })

  it('keeps both sides under their own names when routes use both', () => {
    const both = keepReferencedComponents({
      paths: { '/b': { get: { in: ref('ThingInput'), out: ref('Thing') } } },
      components: { schemas: { Thing: { type: 'string' }, ThingInput: { type: 'number' } } },
    })
    expect(both.components.schemas).toEqual({ Thing: { type: 'string' }, ThingInput: { type: 'number' } })
    expect(both.paths).toEqual({ '/b': { get: { in: ref('ThingInput'), out: ref('Thing') } } })
  })
})
