import { z } from 'zod'
import { compilableRegex } from '../target-fields.ts'
import { defineProtocol } from './define.ts'

const HEX = /^([0-9a-fA-F]{2})*$/

/**
 * A UDP exchange: one datagram out, one back. UDP has no connection, so a silent service and a
 * closed port can look alike (README "UDP checks").
 */
export const udpProtocol = defineProtocol({
  kind: 'udp',
  label: 'UDP',
  description:
    'Sends one datagram and waits for a reply; up when a reply arrives within the timeout and matches the expected text or pattern, if one is given.',
  options: z.object({
    payload: z
      .string()
      .max(8192)
      .optional()
      .meta({ description: 'The datagram to send, as text or as hex digits (payloadEncoding). Default: empty.' }),
    payloadEncoding: z.enum(['text', 'hex']).optional().meta({
      description:
        'How payload is written and how the reply is read for matching: text (UTF-8) or hex (the reply as lowercase hex digits). Default: text.',
    }),
    replyContains: z
      .string()
      .min(1)
      .max(1000)
      .optional()
      .meta({ description: 'The reply must contain this text. Without it or replyMatches, any reply is up.' }),
    replyMatches: compilableRegex
      .min(1)
      .max(1000)
      .optional()
      .meta({ description: 'The reply must match this regular expression.' }),
  }),
  secrets: z.object({}),
  problems: (config) => {
    const problems: Array<[string[], string]> = []
    if (config.port === undefined) problems.push([['port'], 'a UDP check needs a port'])
    if (config.payloadEncoding === 'hex' && config.payload !== undefined && !HEX.test(config.payload)) {
      problems.push([['payload'], 'must be pairs of hex digits when payloadEncoding is hex'])
    }
    if (config.replyContains !== undefined && config.replyMatches !== undefined) {
      problems.push([['replyMatches'], 'give replyContains or replyMatches, not both'])
    }
    return problems
  },
})
