export * from './document.ts'
export * from './load.ts'
