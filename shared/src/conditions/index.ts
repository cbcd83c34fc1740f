export * from './ast.ts'
export * from './duration.ts'
export * from './parse.ts'
