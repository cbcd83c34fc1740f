import agentPackage from '../package.json' with { type: 'json' }

/** The agent's version, from its package.json, as reported in the device's system info. */
export const AGENT_VERSION: string = agentPackage.version
