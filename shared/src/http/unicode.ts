import type { IncomingHttpHeaders } from 'node:http'
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify'
import { GuardError } from '../errors.ts'
import { firstMatch } from './control-characters.ts'

/*
 * Every string a service receives is well-formed Unicode. A lone surrogate (half of a UTF-16
 * pair, from a JSON `\ud83d` escape) is stored by PostgreSQL's text columns as U+FFFD but refused
 * by its `json` and by ClickHouse, so it surfaced as a 500 or a poisoned batch far from the
 * request; bytes that are not UTF-8 were turned into U+FFFD or kept as raw `%XX` text without a
 * word. Both are refused here, at the edge, with a 400 saying where.
 */

// With the u flag a surrogate pair is one code point: only a lone surrogate matches.
const LONE_SURROGATE = /\p{Surrogate}/u
const PERCENT_OR_NON_ASCII = /[%\u0080-\uffff]/
const NON_ASCII = /[\u0080-\uffff]/
// Node hands header bytes over as Latin-1 and refuses other bytes in a URL, so a character past
// U+00FF only comes from an in-process request (tests, inject), whose text is decoded already.
const BEYOND_LATIN1 = /[\u0100-\uffff]/
const ESCAPED_RUN = /(?:%[0-9a-fA-F]{2})+/g

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

/** UTF-8 has no encoding for a surrogate: bytes that try (CESU-8, WTF-8) carry a lone one. */
function encodesSurrogate(bytes: Uint8Array): boolean {
  return bytes.some(
    (byte, index) => byte === 0xed && (bytes[index + 1] ?? 0) >= 0xa0 && (bytes[index + 1] ?? 0) <= 0xbf,
  )
}

const problemOf = (bytes: Uint8Array) => (encodesSurrogate(bytes) ? 'contains a lone surrogate' : 'is not valid UTF-8')

/** What is wrong with `bytes` as UTF-8, or undefined when they are UTF-8. */
function bytesProblem(bytes: Uint8Array): string | undefined {
  try {
    strictUtf8.decode(bytes)
    return undefined
  } catch {
    return problemOf(bytes)
  }
}

/** The text of UTF-8 `bytes`; otherwise VALIDATION_ERROR (400) saying what `what` holds. */
export function decodeUtf8(bytes: Uint8Array, what: string): string {
  try {
    return strictUtf8.decode(bytes)
  } catch {
    throw new GuardError('VALIDATION_ERROR', `${what} ${problemOf(bytes)}`)
  }
}

/**
 * What is wrong with percent-encoded `text` (a query or form component, a path), or undefined.
 * Its other characters are text already (a URL on the wire is ASCII; a form body was decoded), so
 * each run of escapes must be UTF-8 on its own.
 */
function percentEncodedProblem(text: string): string | undefined {
  if (!PERCENT_OR_NON_ASCII.test(text)) return undefined
  if (LONE_SURROGATE.test(text)) return 'contains a lone surrogate'
  for (const [run] of text.matchAll(ESCAPED_RUN)) {
    const problem = bytesProblem(Buffer.from(run.replaceAll('%', ''), 'hex'))
    if (problem) return problem
  }
  return undefined
}

/** A name for a message: decoded where it can be, never longer than a line. */
function shown(name: string): string {
  let text = name
  try {
    text = decodeURIComponent(name.replaceAll('+', ' '))
  } catch {
    // Keep the percent-encoded form: it is ASCII and says which bytes were sent.
  }
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text)
}

/** The first `name=value` pair of urlencoded `text` that is not UTF-8, as a message about `kind`. */
function urlEncodedProblem(text: string, kind: string): string | undefined {
  for (const pair of text.split('&')) {
    const equals = pair.indexOf('=')
    const name = equals < 0 ? pair : pair.slice(0, equals)
    const nameProblem = percentEncodedProblem(name)
    if (nameProblem) return `A ${kind.toLowerCase()} name ${nameProblem}`
    const valueProblem = equals < 0 ? undefined : percentEncodedProblem(pair.slice(equals + 1))
    if (valueProblem) return `${kind} ${shown(name)} ${valueProblem}`
  }
  return undefined
}

/**
 * The fields of an application/x-www-form-urlencoded body. URLSearchParams alone would turn bytes
 * that are not UTF-8, raw or percent-encoded, into U+FFFD: they are refused instead.
 */
export function parseUrlEncodedForm(body: Uint8Array): URLSearchParams {
  const text = decodeUtf8(body, 'Request body')
  const problem = urlEncodedProblem(text, 'Form field')
  if (problem) throw new GuardError('VALIDATION_ERROR', problem)
  return new URLSearchParams(text)
}

function headerProblem(headers: IncomingHttpHeaders): string | undefined {
  for (const name in headers) {
    const value = headers[name]
    // Every request passes here: the common case (one ASCII string) allocates nothing.
    const problem = typeof value === 'string' ? headerTextProblem(value) : value?.map(headerTextProblem).find(Boolean)
    if (problem) return `Header ${name} ${problem}`
  }
  return undefined
}

function headerTextProblem(text: string): string | undefined {
  if (!NON_ASCII.test(text)) return undefined
  if (LONE_SURROGATE.test(text)) return 'contains a lone surrogate'
  if (BEYOND_LATIN1.test(text)) return undefined
  return bytesProblem(Buffer.from(text, 'latin1'))
}

/**
 * Throws VALIDATION_ERROR when a header or a query parameter is not well-formed: fastify's query
 * parser would keep a malformed `%XX` as literal text, and a service could store or echo it.
 */
export function refuseMalformedUrlAndHeaders(request: FastifyRequest): void {
  const queryStart = request.url.indexOf('?')
  const problem =
    headerProblem(request.headers) ??
    (queryStart < 0 ? undefined : urlEncodedProblem(request.url.slice(queryStart + 1), 'Query parameter'))
  if (problem) throw new GuardError('VALIDATION_ERROR', problem)
}

/** The dotted path (from `path`) of the first string or key in `value` with a lone surrogate, or undefined. */
export function loneSurrogateAt(value: unknown, path: string): string | undefined {
  return firstMatch(value, LONE_SURROGATE, path)
}

/** Throws VALIDATION_ERROR naming the first string of the parsed body that holds a lone surrogate. */
export function refuseLoneSurrogatesInBody(request: FastifyRequest): void {
  const where = loneSurrogateAt(request.body, 'body')
  if (where) throw new GuardError('VALIDATION_ERROR', `${where} contains a lone surrogate`)
}

/**
 * The error for a request fastify's router could not take: a path whose percent-escapes are not
 * UTF-8 (FST_ERR_BAD_URL) becomes VALIDATION_ERROR saying so; other router errors stay as they are.
 */
export function routerError(error: FastifyError, url: string): FastifyError | GuardError {
  if (error.code !== 'FST_ERR_BAD_URL') return error
  const path = url.split('?')[0] ?? url
  const problem = percentEncodedProblem(path)
  return new GuardError(
    'VALIDATION_ERROR',
    problem ? `The path ${problem}` : 'The path has a malformed percent-escape (% must be followed by two hex digits)',
  )
}

/**
 * Decodes JSON bodies as strict UTF-8 and refuses malformed text in headers, the query and any
 * parsed body, before a route sees them. fastify's own JSON parser decodes leniently, so the
 * bytes are checked first and the text handed to it.
 */
export function registerUnicodeGuard(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser(
    app.initialConfig.onProtoPoisoning ?? 'error',
    app.initialConfig.onConstructorPoisoning ?? 'error',
  )
  app.removeContentTypeParser('application/json')
  // fastify hands what a parser throws to the error handler, as it does an error passed to `done`.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) =>
    parseJson(request, decodeUtf8(body as Buffer, 'Request body'), done),
  )
  app.addHook('onRequest', async (request) => refuseMalformedUrlAndHeaders(request))
  app.addHook('preValidation', async (request) => refuseLoneSurrogatesInBody(request))
}
