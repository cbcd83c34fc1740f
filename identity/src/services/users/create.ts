import { GuardError, newId, type Sql } from '@guard/shared'
import { hashPassword } from './password.ts'

export interface NewUser {
  email: string
  password: string
  name: string
  picture?: string | undefined
  role?: string | undefined
}

export interface CreatedUser {
  id: string
  email: string
  name: string
  role: string
}

export async function createUser(sql: Sql, input: NewUser): Promise<CreatedUser> {
  if (input.password.length < 12) throw new GuardError('VALIDATION_ERROR', 'password must be at least 12 characters')
  const id = newId()
  const role = input.role ?? 'user'
  const { rows } = await sql.query<{ id: string }>(
    `INSERT INTO identity.users (id, email, password_hash, name, picture, role) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT DO NOTHING RETURNING id`,
    [id, input.email, await hashPassword(input.password), input.name, input.picture ?? null, role],
  )
  if (rows.length === 0) throw new GuardError('CONFLICT', `a user with email ${input.email} already exists`)
  return { id, email: input.email, name: input.name, role }
}
