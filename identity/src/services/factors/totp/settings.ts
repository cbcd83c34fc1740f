/** RFC 6238 defaults every authenticator app understands: SHA-1, 6 digits, 30-second steps. */
export const TOTP_PERIOD = 30
/** ±1 step: a code from the step before or after now is accepted (clock drift, typing time). */
export const TOTP_TOLERANCE_SECONDS = TOTP_PERIOD
export const TOTP_ISSUER = 'Guard'

export const totpCode = /^\d{6}$/
