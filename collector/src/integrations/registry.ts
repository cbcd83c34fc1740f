import { cloudA } from './cloud-a/provider.ts'
import type { IntegrationProvider, ProviderId } from './provider.ts'
import { selfhostB } from './selfhost-b/provider.ts'
import { webhostC } from './webhost-c/provider.ts'

export const providers: Record<ProviderId, IntegrationProvider> = {
  'cloud-a': cloudA,
  'selfhost-b': selfhostB,
  'webhost-c': webhostC,
}
