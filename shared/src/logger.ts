import { type Logger, pino } from 'pino'

export type { Logger }

/**
 * JSON lines by default so log shippers can read them; pretty when a person watches a TTY.
 * Secret-looking fields are censored wherever they appear in a log object.
 */
export function createLogger(options: { name: string; level?: string; pretty?: boolean }): Logger {
  const pretty = options.pretty ?? process.stdout.isTTY === true
  return pino({
    name: options.name,
    level: options.level ?? 'info',
    redact: {
      paths: [
        'password',
        '*.password',
        'apiKey',
        '*.apiKey',
        'token',
        '*.token',
        'secret',
        '*.secret',
        'req.headers.authorization',
        'req.headers.cookie',
      ],
      censor: '[redacted]',
    },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname' } } } : {}),
  })
}
