import { createRequire } from 'node:module'

/** The agent's version, from its package.json, as reported in the device's system info. */
export const AGENT_VERSION: string = createRequire(import.meta.url)('../package.json').version
