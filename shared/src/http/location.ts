/**
 * `path` as a Location header can carry it: every character outside printable ASCII
 * percent-encoded as UTF-8, as a browser sends it. Node refuses a header holding a character
 * beyond Latin-1 (ERR_INVALID_CHAR, a 500) and would send Latin-1 ones as raw bytes. Percent signs
 * stay as they are, so an encoded path is unchanged; a lone surrogate becomes U+FFFD.
 */
export const toLocationPath = (path: string): string =>
  path.toWellFormed().replace(/[^\x21-\x7e]+/g, (run) => encodeURIComponent(run))
