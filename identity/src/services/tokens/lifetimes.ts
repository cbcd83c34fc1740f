/** The spec's lifetimes. */
export const ACCESS_TOKEN_SECONDS = 15 * 60
export const ID_TOKEN_SECONDS = 15 * 60
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 60 * 60
