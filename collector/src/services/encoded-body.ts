import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import Negotiator from 'negotiator'

export type ContentEncoding = 'br' | 'gzip'
const COMPRESSED: ContentEncoding[] = ['br', 'gzip']
/** Below this a compressed copy saves less than its headers cost. */
const MIN_COMPRESSED_BYTES = 1024

const compressors: Record<ContentEncoding, (bytes: Buffer) => Promise<Buffer>> = {
  // Quality 5: about as small as gzip -9 at a fraction of brotli's maximum effort.
  br: (bytes) =>
    promisify(brotliCompress)(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
  gzip: (bytes) => promisify(gzip)(bytes, { level: 6 }),
}

/**
 * A public answer (a status page, a console file) as bytes, sent as they are to every visitor: its
 * UTF-8 encoding once, and its brotli and gzip copies made once, off the event loop, the first time
 * a client accepts them.
 */
export interface EncodedBody {
  identity: Buffer
  compressed: Map<ContentEncoding, { bytes?: Buffer; made: Promise<void> }>
}

export const encodeBody = (content: string | Buffer): EncodedBody => ({
  identity: typeof content === 'string' ? Buffer.from(content, 'utf8') : content,
  compressed: new Map(),
})

/**
 * The copy to send for an Accept-Encoding header: the client's preferred compressed copy when it is
 * ready, else the plain bytes (while a copy is being made, or when the client accepts none). A
 * client that refuses identity still gets it until a copy it accepts exists.
 */
export function bodyFor(
  body: EncodedBody,
  acceptEncoding: string | undefined,
): { encoding: ContentEncoding | undefined; bytes: Buffer } {
  if (!acceptEncoding || body.identity.length < MIN_COMPRESSED_BYTES)
    return { encoding: undefined, bytes: body.identity }
  const accepted = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } }).encodings([...COMPRESSED])
  for (const encoding of accepted as ContentEncoding[]) {
    const bytes = copyOf(body, encoding).bytes
    if (bytes) return { encoding, bytes }
  }
  return { encoding: undefined, bytes: body.identity }
}

/** Resolves once the compressed copies (all, or those named) are made or failed: for warm-up and tests. */
export async function compressBody(
  body: EncodedBody,
  encodings: readonly ContentEncoding[] = COMPRESSED,
): Promise<void> {
  await Promise.all(encodings.map((encoding) => copyOf(body, encoding).made))
}

function copyOf(body: EncodedBody, encoding: ContentEncoding) {
  let copy = body.compressed.get(encoding)
  if (!copy) {
    const made: { bytes?: Buffer; made: Promise<void> } = { made: Promise.resolve() }
    // A copy that cannot be made is not tried again for this answer: the plain bytes still serve.
    made.made = compressors[encoding](body.identity).then(
      (bytes) => {
        made.bytes = bytes
      },
      () => {},
    )
    body.compressed.set(encoding, made)
    copy = made
  }
  return copy
}
