export * from './document.ts'
export * from './load.ts'
export * from './write.ts'
