// Types of agent/build.mjs, for the collector that serves the agent (GET /agent/download).
export declare const AGENT_BUNDLE: string
export declare function bundleAgent(options?: { format?: 'esm' | 'cjs' }): Promise<{ code: Buffer; inputs: string[] }>
export declare function sha256(bytes: Buffer | string): string
export declare function agentBundleIsFresh(): boolean
export declare function writeAgentBundle(): Promise<{ path: string; bytes: number; sha256: string }>
export declare function ensureAgentBundle(): string
export declare function writeAgentExecutable(flags: string[]): Promise<{ path: string; bytes: number }>
