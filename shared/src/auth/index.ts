export * from './access-token.ts'
export * from './member-role.ts'
export * from './scopes.ts'
export * from './service-token.ts'
