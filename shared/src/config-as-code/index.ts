export * from './document.ts'
