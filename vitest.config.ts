import { defineConfig } from 'vitest/config'
import LongestFirstSequencer from './test/support/longest-first-sequencer.ts'

export default defineConfig({
  test: {
    include: ['{shared,probe,collector,identity,agent,test,deploy}/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // chDB and PGlite load native and WASM engines that threads cannot share: forks, one per core.
    pool: 'forks',
    maxWorkers: 2,
    // A fork runs file after file with the modules it already loaded: importing the collector's,
    // identity's and shared's sources again for every file cost 670 s of the suite's CPU (58 s
    // now). Tests share one chDB per process through their own databases (openTestTimeSeriesStore)
    // and start Guard's processes apart, so nothing a file leaves behind is another file's state.
    isolate: false,
    // Tests stay on this machine: a Guard a test starts (and its children, which inherit this) asks
    // a closed local port, never IANA or a registry, for domain registrations.
    env: { GUARD_RDAP_URL: 'http://127.0.0.1:9/', GUARD_RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:9/' },
    // The collector serves the web console's build; it is built once here, before any test starts Guard.
    globalSetup: ['test/support/console-build-setup.ts'],
    // The two workers take files from one queue: the longest go first, so neither ends alone on a
    // slow end-to-end file while the other has nothing left.
    sequence: { sequencer: LongestFirstSequencer },
  },
})
