import { z } from 'zod'
import { MEMBERSHIP_ROLES } from '../organizations/add-member.ts'

const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    'must be a domain name like example.com',
  )

const fields = {
  name: z.string().trim().min(1).max(100).describe('shown on the sign-in button: "Sign in with <name>"'),
  issuer: z
    .url({ protocol: /^https?$/, error: 'must be an http(s):// URL' })
    .max(2048)
    .transform((url) => url.replace(/\/+$/, ''))
    .describe("the upstream provider's issuer; its /.well-known/openid-configuration is read"),
  client_id: z.string().min(1).max(512),
  client_secret: z.string().min(1).max(2048).describe('stored encrypted with GUARD_SECRET_KEY, never returned'),
  scopes: z
    .array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, 'must be a scope token'))
    .max(20)
    .refine((scopes) => scopes.includes('openid'), 'must include openid')
    .describe('default openid email profile'),
  allowed_domains: z
    .array(domain)
    .max(50)
    .describe('e-mail domains allowed to sign in (and that show this provider on the sign-in page); empty: any'),
  role_claim: z
    .string()
    .min(1)
    .max(200)
    .nullable()
    .describe('claim of the ID token or userinfo (string or array of strings) mapped through role_map'),
  role_map: z
    .record(z.string().min(1).max(200), z.enum(MEMBERSHIP_ROLES))
    .describe('claim value → membership role; the first value of the claim found here wins'),
  default_role: z.enum(MEMBERSHIP_ROLES).describe('role when no claim value maps; default member'),
  jit_provisioning: z.boolean().describe('create a Guard user at the first sign-in of an unknown person'),
  link_by_email: z
    .boolean()
    .describe(
      'link an upstream account to the Guard user with the same e-mail, only when the upstream says email_verified',
    ),
  required: z.boolean().describe("members of the provider's organization may not sign in with a password"),
}

/** What an owner or the operator sets; the secret is write-only. */
export const federationProviderInput = z.strictObject({
  ...fields,
  scopes: fields.scopes.default(['openid', 'email', 'profile']),
  allowed_domains: fields.allowed_domains.default([]),
  role_claim: fields.role_claim.default(null),
  role_map: fields.role_map.default({}),
  default_role: fields.default_role.default('member'),
  jit_provisioning: fields.jit_provisioning.default(false),
  link_by_email: fields.link_by_email.default(false),
  required: fields.required.default(false),
})

export type FederationProviderInput = z.infer<typeof federationProviderInput>

/** Only the fields given change: no defaults here. */
export const federationProviderUpdate = z.strictObject(fields).partial()

export const federationProviderView = z
  .object({
    id: z.string(),
    organizationId: z.string().nullable().describe('null: the whole installation'),
    name: z.string(),
    issuer: z.string(),
    clientId: z.string(),
    clientSecretSet: z.literal(true),
    scopes: z.array(z.string()),
    allowedDomains: z.array(z.string()),
    roleClaim: z.string().nullable(),
    roleMap: z.record(z.string(), z.enum(MEMBERSHIP_ROLES)),
    defaultRole: z.enum(MEMBERSHIP_ROLES),
    jitProvisioning: z.boolean(),
    linkByEmail: z.boolean(),
    required: z.boolean(),
    redirectUri: z.string().describe('register this callback at the upstream provider'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'FederationProvider' })

export type FederationProviderView = z.infer<typeof federationProviderView>

/** The stored provider, secret still sealed. */
export interface FederationProvider {
  id: string
  organizationId: string | null
  name: string
  issuer: string
  clientId: string
  clientSecretEncrypted: string
  scopes: string[]
  allowedDomains: string[]
  roleClaim: string | null
  roleMap: Record<string, (typeof MEMBERSHIP_ROLES)[number]>
  defaultRole: (typeof MEMBERSHIP_ROLES)[number]
  jitProvisioning: boolean
  linkByEmail: boolean
  required: boolean
  createdAt: Date
  updatedAt: Date
}

export interface ProviderRow {
  id: string
  organization_id: string | null
  name: string
  issuer: string
  client_id: string
  client_secret_encrypted: string
  scopes: string[]
  allowed_domains: string[]
  role_claim: string | null
  role_map: Record<string, (typeof MEMBERSHIP_ROLES)[number]>
  default_role: (typeof MEMBERSHIP_ROLES)[number]
  jit_provisioning: boolean
  link_by_email: boolean
  required: boolean
  created_at: Date
  updated_at: Date
}

export const PROVIDER_COLUMNS = `id, organization_id, name, issuer, client_id, client_secret_encrypted, scopes, allowed_domains,
  role_claim, role_map, default_role, jit_provisioning, link_by_email, required, created_at, updated_at`

export const providerFromRow = (row: ProviderRow): FederationProvider => ({
  id: row.id,
  organizationId: row.organization_id,
  name: row.name,
  issuer: row.issuer,
  clientId: row.client_id,
  clientSecretEncrypted: row.client_secret_encrypted,
  scopes: row.scopes,
  allowedDomains: row.allowed_domains,
  roleClaim: row.role_claim,
  roleMap: row.role_map,
  defaultRole: row.default_role,
  jitProvisioning: row.jit_provisioning,
  linkByEmail: row.link_by_email,
  required: row.required,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
})

/** Where the upstream sends the browser back; the same for every provider, the state cookie tells them apart. */
export const federationCallbackUrl = (issuer: string) => `${issuer}/sign-in/federation/callback`

export const providerView = (provider: FederationProvider, issuer: string): FederationProviderView => ({
  id: provider.id,
  organizationId: provider.organizationId,
  name: provider.name,
  issuer: provider.issuer,
  clientId: provider.clientId,
  clientSecretSet: true,
  scopes: provider.scopes,
  allowedDomains: provider.allowedDomains,
  roleClaim: provider.roleClaim,
  roleMap: provider.roleMap,
  defaultRole: provider.defaultRole,
  jitProvisioning: provider.jitProvisioning,
  linkByEmail: provider.linkByEmail,
  required: provider.required,
  redirectUri: federationCallbackUrl(issuer),
  createdAt: provider.createdAt.toISOString(),
  updatedAt: provider.updatedAt.toISOString(),
})
