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
    // The collector serves the web console's build; it is built once here, before any test starts Guard.
    globalSetup: ['test/support/console-build-setup.ts'],
  },
})
