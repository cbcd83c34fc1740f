import { z } from 'zod'

const base64url = z
  .string()
  .max(8192)
  .regex(/^[A-Za-z0-9_-]*$/, 'must be base64url')

/** What @simplewebauthn/browser's startRegistration answers, checked before the library parses it. */
export const registrationResponse = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url,
    transports: z.array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'])).optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()),
  authenticatorAttachment: z.enum(['cross-platform', 'platform']).optional(),
})

/** What @simplewebauthn/browser's startAuthentication answers. */
export const authenticationResponse = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: base64url.optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()),
  authenticatorAttachment: z.enum(['cross-platform', 'platform']).optional(),
})

export const passkeyName = z.string().trim().min(1).max(100)

export const passkeyView = z
  .object({
    id: z.string(),
    name: z.string(),
    synced: z.boolean().describe('a passkey synced between devices (backup eligible) rather than bound to one'),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Passkey' })
export type PasskeyView = z.infer<typeof passkeyView>
