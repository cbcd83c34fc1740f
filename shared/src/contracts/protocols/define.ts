import { z } from 'zod'
import { decryptSecret, encryptSecret } from '../../crypto/index.ts'
import { targetHost, targetPort } from '../target-fields.ts'

/** A probe was given sealed credentials it cannot open (no key, or another key than the collector's). */
export class CredentialsUnavailableError extends Error {
  override name = 'CredentialsUnavailableError'
}

/** A rule between fields a schema cannot say alone, as `[path inside the options, message]`. */
export type ProtocolProblems<Config> = (config: Config) => Array<[string[], string]>

export interface ProtocolSpec<Kind extends string, Options extends z.ZodRawShape, Secrets extends z.ZodRawShape> {
  /** The service API's `protocol` and the probe target's `kind`. */
  kind: Kind
  /** What the console and docs call it: `gRPC health`, `PostgreSQL`. */
  label: string
  /** One sentence for OpenAPI and the console: what an `up` result proves. */
  description: string
  /** The port used when none is given; omitted when a port must be given. */
  defaultPort?: number
  /** The check's options besides `host` and `port`, as the API takes and returns them. */
  options: z.ZodObject<Options>
  /**
   * Write-only fields (passwords, tokens): sealed at rest, sealed for probes, never returned or
   * logged; reads show `secretsSet` instead. An empty object when the protocol has none.
   */
  secrets: z.ZodObject<Secrets>
  problems?: ProtocolProblems<z.infer<z.ZodObject<Options>> & { port?: number | undefined }>
}

/** Sealed `secrets`, as the collector stores them and probes receive them. */
const sealedSecrets = z.string().min(1).max(20_000)

/**
 * One protocol of the registry (README "Check protocols"): the probe target is
 * `{ kind, host, port?, ...options, secrets? | sealedSecrets? }`, which is also the service API's
 * `protocolConfig` (with the secrets flat beside the options), so one schema per protocol serves
 * the probe, the API, OpenAPI and the console form.
 */
export function defineProtocol<Kind extends string, Options extends z.ZodRawShape, Secrets extends z.ZodRawShape>(
  spec: ProtocolSpec<Kind, Options, Secrets>,
) {
  const target = z
    .object({
      kind: z.literal(spec.kind),
      host: targetHost,
      port: targetPort.optional(),
      secrets: spec.secrets.partial().optional(),
      sealedSecrets: sealedSecrets.optional(),
    })
    .extend(spec.options.shape)
  return { ...spec, target, secretFields: Object.keys(spec.secrets.shape) as Array<keyof Secrets & string> }
}

export type ProtocolDefinition = ReturnType<typeof defineProtocol<string, z.ZodRawShape, z.ZodRawShape>>

interface SecretCarrier {
  secrets?: Record<string, unknown> | undefined
  sealedSecrets?: string | undefined
}

/** The target with its `secrets` sealed under the probe credentials key, when there is one. */
export function sealTargetSecrets<Target extends object>(target: Target, key: Buffer | undefined): Target {
  const carrier: SecretCarrier = target
  if (!key || !carrier.secrets) return target
  const { secrets, ...rest } = carrier
  return { ...rest, sealedSecrets: encryptSecret(key, JSON.stringify(secrets)) } as Target
}

/** The target with its secrets opened; throws CredentialsUnavailableError without the right key. */
export function openTargetSecrets<Target extends object>(target: Target, key: Buffer | undefined): Target {
  const carrier: SecretCarrier = target
  if (!carrier.sealedSecrets) return target
  const { sealedSecrets: sealed, ...rest } = carrier
  if (!key) {
    throw new CredentialsUnavailableError(
      'the monitor has sealed credentials; set GUARD_PROBE_CREDENTIALS_KEY on this probe as on the collector',
    )
  }
  try {
    return {
      ...rest,
      secrets: z.record(z.string(), z.unknown()).parse(JSON.parse(decryptSecret(key, sealed))),
    } as Target
  } catch {
    throw new CredentialsUnavailableError(
      'GUARD_PROBE_CREDENTIALS_KEY of this probe does not open the credentials; it must equal the collector’s',
    )
  }
}
