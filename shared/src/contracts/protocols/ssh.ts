import { z } from 'zod'
import { defineProtocol } from './define.ts'

/** OpenSSH's fingerprint form: `SHA256:` and the unpadded base64 of the key's SHA-256 (43 characters). */
export const sshFingerprint = z
  .string()
  .regex(/^SHA256:[A-Za-z0-9+/]{43}$/, 'must be an OpenSSH fingerprint: SHA256: and 43 base64 characters')

/** An SSH server's identification and, when pinned, its host key (README "SSH checks"). Never logs in. */
export const sshProtocol = defineProtocol({
  kind: 'ssh',
  label: 'SSH',
  description:
    'Reads the SSH identification string (SSH-2.0-…); with a pinned host key, completes the key exchange and is up only when the key’s fingerprint is the pinned one. Never logs in.',
  defaultPort: 22,
  options: z.object({
    hostKeySha256: sshFingerprint.optional().meta({
      description:
        'The host key’s fingerprint as `ssh-keygen -lf` prints it (SHA256:…). With it the check completes the key exchange; another key is down (host_key_changed).',
    }),
  }),
  secrets: z.object({}),
})
