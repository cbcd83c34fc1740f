import { isIP } from 'node:net'

/**
 * Second-level suffixes under which people register names (no public-suffix list library is
 * installed, so this short list stands in for one): `shop.example.co.uk` is registered as
 * `example.co.uk`, not `co.uk`. Any other name is registered under its last two labels.
 */
const SECOND_LEVEL_SUFFIXES = new Set([
  ...['co', 'org', 'me', 'ltd', 'plc', 'net', 'ac', 'gov', 'sch'].map((label) => `${label}.uk`),
  ...['com', 'net', 'org', 'edu', 'gov', 'id', 'asn'].map((label) => `${label}.au`),
  ...['co', 'org', 'net', 'ac', 'govt', 'geek'].map((label) => `${label}.nz`),
  ...['co', 'ne', 'or', 'ac', 'go'].map((label) => `${label}.jp`),
  ...['co', 'or', 'ne', 'ac', 'go'].map((label) => `${label}.kr`),
  ...['co', 'org', 'net', 'web', 'ac', 'gov'].map((label) => `${label}.za`),
  ...['com', 'net', 'org', 'edu', 'gov'].map((label) => `${label}.br`),
  ...['com', 'net', 'org', 'edu', 'gov'].map((label) => `${label}.cn`),
  ...['com', 'net', 'org', 'edu', 'gob'].map((label) => `${label}.mx`),
  ...['com', 'net', 'org', 'edu', 'gob'].map((label) => `${label}.ar`),
  ...['co', 'net', 'org', 'firm', 'gen', 'ind', 'ac', 'edu', 'gov'].map((label) => `${label}.in`),
  ...['com', 'net', 'org', 'edu', 'gov'].map((label) => `${label}.tr`),
  ...['com', 'net', 'org', 'edu', 'gov'].map((label) => `${label}.sg`),
  ...['com', 'net', 'org', 'edu', 'gov'].map((label) => `${label}.hk`),
  ...['com', 'net', 'org', 'edu', 'gov'].map((label) => `${label}.tw`),
  ...['co', 'org', 'net', 'ac', 'gov'].map((label) => `${label}.il`),
  ...['com', 'net', 'org'].map((label) => `${label}.pl`),
])

/** Names no registry holds (RFC 2606, 6761, 6762, 8375 and the ICANN-reserved `.internal`). */
const UNREGISTERED_TLDS = new Set(['localhost', 'local', 'test', 'example', 'invalid', 'internal', 'arpa', 'onion'])

/**
 * The name a registrar holds for `host` (lowercase, punycode as URLs carry it), or undefined for
 * an IP address, a single label or a reserved name, which have no registration to expire.
 */
export function registrableDomain(host: string): string | undefined {
  const name = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
  if (isIP(name) !== 0) return undefined
  const labels = name.split('.')
  // Longer names and labels than DNS allows (RFC 1035) have no registration to ask about.
  if (name.length > 253 || labels.length < 2 || labels.some((label) => label === '' || label.length > 63))
    return undefined
  if (UNREGISTERED_TLDS.has(labels[labels.length - 1]!)) return undefined
  const take = SECOND_LEVEL_SUFFIXES.has(labels.slice(-2).join('.')) ? 3 : 2
  if (labels.length < take) return undefined
  return labels.slice(-take).join('.')
}

/** The registrable domain of a monitor's URL, or undefined (see registrableDomain). */
export function registrableDomainOfUrl(url: string): string | undefined {
  try {
    return registrableDomain(new URL(url).hostname)
  } catch {
    return undefined
  }
}
