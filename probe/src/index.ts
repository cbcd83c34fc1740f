export { type ProbeEnv, parseProbeEnv, probeEnvSchema } from './env.ts'
export { type ProbeDeps, type RunningProbe, startProbe } from './server.ts'
