import type { TestProject } from 'vitest/node'
import { startLocalPostgres } from '../../scripts/postgres/local-postgres'

// One PostgreSQL server for the whole run (created in ~0.6 s, in a temporary folder that
// stopping it removes); each test file makes its own database on it with
// createTestDatabase() from test/helpers/postgres.ts.

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's PostgreSQL server, to its maintenance database, as superuser. */
    postgresServerUrl: string
  }
}

/** Starts the run's server and hands its URL to the test files; returns what stops it. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startLocalPostgres()
  project.provide('postgresServerUrl', server.url)
  return () => server.stop()
}
