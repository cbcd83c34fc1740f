import { randomBytes } from 'node:crypto'

export { hashPassword, verifyPassword } from '@guard/shared'

export const randomPassword = (): string => randomBytes(18).toString('base64url')
