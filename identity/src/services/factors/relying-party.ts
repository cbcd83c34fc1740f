/**
 * The WebAuthn relying party is identity's public address: its host is the RP id passkeys are
 * bound to, its origin the one browsers sign. Browsers refuse an IP address as RP id, which is why
 * passkeys need GUARD_IDENTITY_URL to name a host (`http://localhost:4000` on one machine).
 */
export function relyingParty(issuer: string): { id: string; origin: string; name: string } {
  const url = new URL(issuer)
  return { id: url.hostname, origin: url.origin, name: 'Guard' }
}
