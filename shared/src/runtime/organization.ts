/**
 * The organization the first start creates. Its id is fixed so that identity (which owns
 * organizations) and collector (which owns API keys) agree on it without reading each other's schema.
 */
export const DEFAULT_ORGANIZATION = {
  id: '00000000-0000-7000-8000-000000000001',
  slug: 'default',
  name: 'Default organization',
} as const
