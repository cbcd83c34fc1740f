import { z } from 'zod'
import { compilableRegex } from '../target-fields.ts'
import { defineProtocol } from './define.ts'

const headerName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, 'must be a valid header name')
const headerValue = z
  .string()
  .max(8192)
  .regex(/^[^\r\n\0]*$/, 'must not contain line breaks')
/** A subprotocol is an HTTP token (RFC 6455 §4.1). */
const subprotocol = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, 'must be a token such as graphql-ws')

/** Headers of the opening handshake the probe sets itself. */
const PROBE_HEADERS = new Set([
  'host',
  'connection',
  'upgrade',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'te',
  'trailer',
  'proxy-connection',
  'expect',
])

/**
 * A WebSocket opening handshake, optionally one message out and the first reply checked, and
 * optionally the server's closing code (README "WebSocket checks").
 */
export const websocketProtocol = defineProtocol({
  kind: 'websocket',
  label: 'WebSocket',
  description:
    'Opens a WebSocket (ws:// or wss://); up when the upgrade is accepted and, when asked, the first reply matches and the server closes with the expected code.',
  options: z.object({
    path: z
      .string()
      .max(2000)
      .regex(/^\/[^\s#]*$/, 'must start with "/" (a query is allowed, a fragment is not)')
      .optional()
      .meta({ description: 'The path and query of the WebSocket URL. Default: "/".' }),
    tls: z.boolean().optional().meta({
      description: 'wss:// instead of ws://; the certificate is verified and reported. Default: false.',
    }),
    ignoreTlsErrors: z.boolean().optional().meta({
      description: 'With tls: accept an invalid or expired certificate (its details are still reported).',
    }),
    headers: z
      .record(headerName, headerValue)
      .optional()
      .meta({ description: 'Headers of the opening handshake (Origin, Cookie…); at most 20.' }),
    subprotocols: z
      .array(subprotocol)
      .min(1)
      .max(10)
      .optional()
      .meta({ description: 'Offered in Sec-WebSocket-Protocol; the server must pick one of them.' }),
    send: z.string().max(65_536).optional().meta({
      description: 'A text message sent once the socket is open. The first message received after it is the reply.',
    }),
    replyContains: z.string().min(1).max(1000).optional().meta({
      description:
        'The first message received (the reply to send, or the server’s greeting without send) must contain this text.',
    }),
    replyMatches: compilableRegex
      .min(1)
      .max(1000)
      .optional()
      .meta({ description: 'The first message received must match this regular expression.' }),
    closeCode: z.number().int().min(1000).max(4999).optional().meta({
      description:
        'Wait for the server to close the connection, and expect this close code (e.g. 1000). Without it the probe closes.',
    }),
  }),
  secrets: z.object({
    authorization: headerValue
      .min(1)
      .meta({ description: 'The Authorization header of the handshake, e.g. "Bearer <token>". Write-only.' }),
  }),
  problems: (config) => {
    const problems: Array<[string[], string]> = []
    if (config.ignoreTlsErrors !== undefined && !config.tls) problems.push([['ignoreTlsErrors'], 'needs tls'])
    if (config.replyContains !== undefined && config.replyMatches !== undefined) {
      problems.push([['replyMatches'], 'give replyContains or replyMatches, not both'])
    }
    const names = Object.keys(config.headers ?? {})
    if (names.length > 20) problems.push([['headers'], 'at most 20 headers'])
    for (const name of names) {
      const lower = name.toLowerCase()
      if (PROBE_HEADERS.has(lower) || lower.startsWith('sec-websocket-')) {
        const hint = lower === 'sec-websocket-protocol' ? '; give subprotocols instead' : ''
        problems.push([['headers', name], `${name} is set by the probe and cannot be given${hint}`])
      }
      if (lower === 'authorization') {
        problems.push([['headers', name], 'give authorization as a secret, which is never returned'])
      }
    }
    if (config.subprotocols && new Set(config.subprotocols).size !== config.subprotocols.length) {
      problems.push([['subprotocols'], 'must not repeat a subprotocol'])
    }
    return problems
  },
})
