import { randomBytes } from 'node:crypto'
import pg from 'pg'

/** The project-started PostgreSQL server the test run uses (its admin URL). */
export function testPostgresAdminUrl(): string {
  const url = process.env.HELIOGRAPH_TEST_POSTGRES_URL
  if (!url)
    throw new Error('HELIOGRAPH_TEST_POSTGRES_URL is not set: the test run starts PostgreSQL')
  return url
}

/** A fresh, empty database on the test server for one test; `drop()` removes it. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = testPostgresAdminUrl()
  const name = `t_${randomBytes(6).toString('hex')}`
  await onAdmin(admin, (c) => c.query(`create database ${name}`))
  const url = new URL(admin)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: () => onAdmin(admin, (c) => c.query(`drop database if exists ${name} with (force)`)),
  }
}

async function onAdmin(url: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await work(client)
  } finally {
    await client.end()
  }
}
