export * from './password.ts'
export * from './secret-box.ts'
export * from './secret-key.ts'
