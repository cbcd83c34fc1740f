import { describe, expect, it } from 'vitest'
import { checkPlacement, type TreeLink } from './tree.ts'

// a ─ b ─ c (three levels), d alone, e ─ f (two levels)
const links: TreeLink[] = [
  { id: 'a', parentId: null },
  { id: 'b', parentId: 'a' },
  { id: 'c', parentId: 'b' },
  { id: 'd', parentId: null },
  { id: 'e', parentId: null },
  { id: 'f', parentId: 'e' },
]
const place = (id: string | null, parentId: string | null) => () => checkPlacement(links, id, parentId)

describe('where a group may sit in the tree', () => {
  it('accepts the top level and any place within three levels', () => {
    expect(place(null, null)).not.toThrow()
    expect(place(null, 'b')).not.toThrow()
    expect(place('d', 'b')).not.toThrow()
    expect(place('e', 'd')).not.toThrow()
    expect(place('c', null)).not.toThrow()
  })

  it('refuses a fourth level, for a new group and for a group moved with its children', () => {
    expect(place(null, 'c')).toThrow('parentId: groups nest at most 3 levels deep')
    expect(place('e', 'b')).toThrow('at most 3 levels deep, and this would make 4')
    expect(place('d', 'c')).toThrow('at most 3 levels')
  })

  it('refuses a group as its own parent or under one of its descendants', () => {
    expect(place('a', 'a')).toThrow('parentId: a group cannot be its own ancestor')
    expect(place('a', 'c')).toThrow('a group cannot be its own ancestor')
    expect(place('e', 'f')).toThrow('a group cannot be its own ancestor')
  })

  it('refuses a parent the organization does not have', () => {
    expect(place(null, 'elsewhere')).toThrow('parentId: no such group in the organization')
  })
})
