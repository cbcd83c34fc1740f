export * from './access-token.ts'
