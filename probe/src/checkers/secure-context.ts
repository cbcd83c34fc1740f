import { createSecureContext } from 'node:tls'

/**
 * One TLS context per thread for every check: building one per connection (the default) costs
 * about a quarter of a millisecond each time. Sessions are not cached without an agent, so every
 * check still makes a full handshake.
 */
export const secureContext = createSecureContext()
