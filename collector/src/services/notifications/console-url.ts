import { consoleBaseUrl } from '../../env.ts'

/** A page of the web console, for links in messages. */
export const consoleUrl = (env: Parameters<typeof consoleBaseUrl>[0], path: string) => `${consoleBaseUrl(env)}${path}`
