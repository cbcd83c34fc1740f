export * from './access-token.ts'
export * from './service-token.ts'
