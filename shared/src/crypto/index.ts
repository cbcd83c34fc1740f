export * from './secret-box.ts'
export * from './secret-key.ts'
