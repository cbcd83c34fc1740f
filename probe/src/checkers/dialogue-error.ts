import type { ErrorKind } from '@guard/shared'

/**
 * A server that answered, but not as the check expects (a wrong greeting, a refused login, another
 * host key); `kind` is the result's errorKind and the message its error text.
 */
export class DialogueError extends Error {
  override name = 'DialogueError'
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message)
  }
}
