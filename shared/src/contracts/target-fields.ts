import { isIP } from 'node:net'
import { z } from 'zod'

/** A check's host: a DNS name or an IP address (the probe's target guard vets what it resolves to). */
export const targetHost = z
  .string()
  .min(1)
  .max(253)
  .refine((value) => isIP(value) !== 0 || /^[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_.])?$/.test(value), {
    message: 'must be a hostname or an IP address',
  })

export const targetPort = z.number().int().min(1).max(65_535)

/** A regular expression the probe can compile. */
export const compilableRegex = z.string().refine(
  (source) => {
    try {
      new RegExp(source)
      return true
    } catch {
      return false
    }
  },
  { message: 'must be a valid regular expression' },
)
