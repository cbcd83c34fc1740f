import { z } from 'zod'
import { compilableRegex } from '../target-fields.ts'
import { defineProtocol } from './define.ts'

/** A topic filter a broker accepts: `#` only as the whole last level, `+` only as a whole level. */
export function topicFilterValid(filter: string): boolean {
  const levels = filter.split('/')
  return levels.every((level, index) => {
    if (level.includes('#')) return level === '#' && index === levels.length - 1
    if (level.includes('+')) return level === '+'
    return true
  })
}

const topicFilter = z
  .string()
  .min(1)
  .max(1000)
  .regex(/^[^\0]*$/, 'must not contain NUL')
  .refine(topicFilterValid, { message: 'must be a topic filter: "#" only as the last level, "+" as a whole level' })

/**
 * An MQTT broker accepts a connection (and the credentials, when given) and, when asked, delivers
 * a message on a topic within the timeout (README "MQTT checks").
 */
export const mqttProtocol = defineProtocol({
  kind: 'mqtt',
  label: 'MQTT',
  description:
    'Connects to an MQTT broker (MQTT 3.1.1, optionally over TLS); up when the broker accepts the connection and, with a topic, delivers a matching message within the timeout.',
  options: z.object({
    tls: z.boolean().optional().meta({
      description: 'mqtts:// (port 8883 unless given) instead of mqtt:// (port 1883); the certificate is reported.',
    }),
    ignoreTlsErrors: z.boolean().optional().meta({
      description: 'With tls: accept an invalid or expired certificate (its details are still reported).',
    }),
    username: z.string().min(1).max(200).optional().meta({ description: 'The user name to connect with.' }),
    topic: topicFilter.optional().meta({
      description:
        'Subscribe to this topic filter (wildcards + and # allowed) and expect a message within the timeout; a retained message counts.',
    }),
    messageContains: z
      .string()
      .min(1)
      .max(1000)
      .optional()
      .meta({ description: 'With topic: a message whose payload contains this text must arrive.' }),
    messageMatches: compilableRegex
      .min(1)
      .max(1000)
      .optional()
      .meta({ description: 'With topic: a message whose payload matches this regular expression must arrive.' }),
  }),
  secrets: z.object({
    password: z.string().min(1).max(1000).meta({ description: 'The password; needs username. Write-only.' }),
  }),
  problems: (config) => {
    const problems: Array<[string[], string]> = []
    if (config.ignoreTlsErrors !== undefined && !config.tls) problems.push([['ignoreTlsErrors'], 'needs tls'])
    if (config.messageContains !== undefined && config.messageMatches !== undefined) {
      problems.push([['messageMatches'], 'give messageContains or messageMatches, not both'])
    }
    for (const field of ['messageContains', 'messageMatches'] as const) {
      if (config[field] !== undefined && config.topic === undefined) problems.push([[field], 'needs a topic'])
    }
    return problems
  },
})
