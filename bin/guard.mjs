#!/usr/bin/env node
// Guard runs its TypeScript sources directly: tsx registers the loader, then the CLI takes over.
import { register } from 'tsx/esm/api'

register()
await import('./cli.ts')
