export { type AgentMetrics, collectMetrics } from './collect-metrics.ts'
export { type AgentEnv, agentEnvSchema, parseAgentEnv } from './env.ts'
export { sendHeartbeat } from './send-heartbeat.ts'
