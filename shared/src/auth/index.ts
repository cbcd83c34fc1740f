export * from './access-token.ts'
export * from './scopes.ts'
export * from './service-token.ts'
