import { expect, it } from 'vitest'
import { documentYaml } from './write.ts'

it('writes version first, the lists in apply order, skips empty ones and never writes aliases', () => {
  const monitors = ['shop', 'db']
  const text = documentYaml(
    {
      version: 1,
      maintenance: [
        { id: 'mon', monitors },
        { id: 'wed', monitors },
      ],
      domains: [{ id: 'shop', url: 'https://shop.example.com' }],
      groups: [],
    },
    'Imported from a test\nReview it',
  )
  expect(text).toBe(
    [
      '# Imported from a test',
      '# Review it',
      '',
      'version: 1',
      'domains:',
      '  - id: shop',
      '    url: https://shop.example.com',
      'maintenance:',
      '  - id: mon',
      '    monitors:',
      '      - shop',
      '      - db',
      '  - id: wed',
      '    monitors:',
      '      - shop',
      '      - db',
      '',
    ].join('\n'),
  )
})
