import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['{shared,probe,collector,identity,agent,test}/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // chDB allows one data directory per process: a fork per test file keeps each file's engine its own.
    pool: 'forks',
    maxWorkers: 2,
  },
})
