import { describe, expect, it } from 'vitest'
import { listPlatforms, platformLabel } from './list-platforms.ts'
import { providerIds } from './provider.ts'
import { providers } from './registry.ts'

describe('integration platforms', () => {
  it('gives every neutral id the product it stands for, with a description', () => {
    expect(Object.fromEntries(providerIds.map((id) => [id, providers[id].product.name]))).toEqual({
      'cloud-a': 'Microsoft Azure',
      'selfhost-b': 'Coolify',
      'webhost-c': 'Vercel',
    })
    for (const id of providerIds) {
      // A description says what is read, in words of its own, not the codename again.
      expect(providers[id].product.description.length).toBeGreaterThan(40)
      expect(providers[id].product.description).not.toContain(id)
    }
  })

  it('lists the platforms with their paths and labels them product first', () => {
    expect(listPlatforms([{ provider: 'selfhost-b', collection: 'instances', items: 'resources' }])).toEqual([
      {
        id: 'selfhost-b',
        name: 'Coolify',
        description: providers['selfhost-b'].product.description,
        path: '/api/selfhost-b/instances',
        items: 'resources',
      },
    ])
    expect(platformLabel('webhost-c')).toBe('Vercel (webhost-c)')
  })
})
