import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'

// Unit and integration tests run on real SQLite files, a real PostgreSQL server started
// for the run (test/setup/local-postgres.ts) and real loopback HTTP; e2e tests drive
// Debian's Chromium against the built renderer served by the web shell.
export default defineConfig({
  // `@shared/…` is src-shared, as in tsconfig.json's paths.
  resolve: { alias: { '@shared': resolve(import.meta.dirname, 'src-shared') } },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**'],
    globalSetup: ['test/setup/local-postgres.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
})
