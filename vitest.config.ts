import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'
import { LongFilesFirst } from './test/setup/long-files-first'

// Four tiers, one run (`vitest run`, as `npm test` runs it) or the two in-process ones
// (`npm run test:fast`):
// - unit: pure logic, no I/O.
// - integration: real SQLite files, the run's real PostgreSQL server
//   (test/setup/local-postgres.ts) and real loopback HTTP against the simulator, with the
//   CLI and the app's core in the test's own process.
// - process: what only a process of its own shows (signals, kills, exit codes, locks
//   between processes, the built app), named `*.process.test.ts`, and test/integration/build.
// - e2e: Debian's Chromium (one per run, test/setup/chromium-server.ts) against the built
//   renderer served by the web shell; it runs once the other three are done.
// Waiting runs on injected clocks (src-shared/clock.ts), so most of the work is CPU: four
// workers keep two cores busy while some of them wait on I/O. Unit and integration files
// share their worker's loaded modules (isolate: false: loading the app once per worker,
// not once per file, saves a sixth of the integration tier's CPU); the process and e2e
// tiers keep a fresh module graph per file.
const shared = resolve(import.meta.dirname, 'src-shared')
const PROCESS_TESTS = [
  'test/integration/**/*.process.test.ts',
  'test/integration/build/**/*.test.ts',
]

export default defineConfig({
  // `@shared/…` is src-shared, as in tsconfig.json's paths.
  resolve: { alias: { '@shared': shared } },
  test: {
    pool: 'forks',
    maxWorkers: 4,
    sequence: { sequencer: LongFilesFirst },
    testTimeout: 30_000,
    // A poll waits for what the app does next (a page reloads, a sync lands); with other
    // files running beside it that can take more than vitest's default second.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 60_000,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: PROCESS_TESTS,
          isolate: false,
          globalSetup: ['test/setup/local-postgres.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'process',
          include: PROCESS_TESTS,
          globalSetup: ['test/setup/local-postgres.ts', 'test/setup/built-app.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // After the other tiers, three at a time: a page's timing assertions (a progress
          // bar seen, a poll within its window) need the CPU the CPU-bound tiers would take.
          // A file waits on its pages much of the time, so three keep two cores busy (four
          // gained nothing more).
          sequence: { groupOrder: 1 },
          maxWorkers: 3,
          globalSetup: ['test/setup/built-app.ts', 'test/setup/chromium-server.ts'],
        },
      },
    ],
  },
})
