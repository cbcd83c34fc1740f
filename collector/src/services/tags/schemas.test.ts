import { describe, expect, it } from 'vitest'
import { hasTags, tagCondition } from './match.ts'
import { subjectTags, tagQuery } from './schemas.ts'

describe('tags', () => {
  it('normalises a subject tag: trimmed around key and value, key in lower case, duplicates dropped', () => {
    expect(subjectTags.parse([' Env : Prod ', 'env:Prod', 'Backup', 'team:payments'])).toEqual([
      'env:Prod',
      'backup',
      'team:payments',
    ])
  })

  it('refuses empty tags, keys with spaces, empty values and more than 20 tags', () => {
    for (const bad of [
      [''],
      ['my tag'],
      ['env:'],
      [':prod'],
      ['env:a,b'],
      Array.from({ length: 21 }, (_, i) => `t${i}`),
    ]) {
      expect(subjectTags.safeParse(bad).success, JSON.stringify(bad)).toBe(false)
    }
  })

  it('reads one or repeated tag query parameters, key:* standing for the bare key', () => {
    expect(tagQuery.parse(undefined)).toEqual([])
    expect(tagQuery.parse('Env:prod')).toEqual(['env:prod'])
    expect(tagQuery.parse(['team:*', 'env:prod'])).toEqual(['team', 'env:prod'])
  })

  it('matches every tag named, a bare key any value of it', () => {
    const tags = ['env:prod', 'team:payments', 'backup']
    expect(hasTags(tags, ['env:prod', 'team'])).toBe(true)
    expect(hasTags(tags, ['backup'])).toBe(true)
    expect(hasTags(tags, ['env:pro'])).toBe(false)
    expect(hasTags(tags, ['env:prod', 'region'])).toBe(false)
    expect(hasTags(['environment:prod'], ['env'])).toBe(false)
  })

  it('builds no SQL condition without tags, and one per kind of selector with them', () => {
    expect(tagCondition('m.tags', [], 3)).toEqual({ sql: 'TRUE', parameters: [] })
    expect(tagCondition('m.tags', ['env:prod', 'team', 'region:eu'], 3)).toEqual({
      sql: 'm.tags @> $3::text[] AND monitoring.tag_keys(m.tags) @> $4::text[]',
      parameters: [['env:prod', 'region:eu'], ['team']],
    })
  })
})
