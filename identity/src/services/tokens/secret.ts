import { createHash, randomBytes } from 'node:crypto'

/** 256 bits of randomness, base64url: codes, refresh tokens, session ids and client secrets. */
export const randomToken = () => randomBytes(32).toString('base64url')

/**
 * These secrets are random with 256 bits of entropy, so a plain SHA-256 is a safe way to store
 * them and lets a lookup go by the hash (no per-row salt to try).
 */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url')
