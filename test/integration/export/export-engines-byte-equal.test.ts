import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { runCli as cli } from '../../helpers/cli-in-process'
import { createTestDatabase } from '../../helpers/postgres'
import { makeTempDir } from '../../helpers/temp-dir'

// Small wallets: the CLI paces itself to the plan's rate, so big ones take minutes.
const PROFILES = ['idle', 'casual', 'compressed-holder', 'failed-transactions']

/** Each export the CLI offers, as its arguments. */
const EXPORTS: Record<string, string[]> = {
  'balance changes, full': ['--kind', 'balance-changes', '--format', 'full'],
  'balance changes, Koinly': ['--kind', 'balance-changes', '--format', 'koinly'],
  'balance changes, CoinTracker': ['--kind', 'balance-changes', '--format', 'cointracker'],
  'balance changes of one token, failed only, semicolons': [
    '--kind',
    'balance-changes',
    '--mint',
    'So11111111111111111111111111111111111111112',
    '--failed-only',
    '--delimiter',
    ';',
  ],
  transfers: ['--kind', 'transfers'],
}

describe('CSV exports of the same wallets from a SQLite and a PostgreSQL mirror are byte-equal', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let postgres: Awaited<ReturnType<typeof createTestDatabase>>
  let sqliteArgs: string[]
  let postgresArgs: string[]

  beforeAll(async () => {
    // A still chain: both mirrors sync the same history.
    sim = await startSimulator({ seed: 11, clock: { mode: 'manual' } })
    postgres = await createTestDatabase()
    const service = ['--service', sim.url, '--api-key', 'demo']
    sqliteArgs = ['--data-dir', join(temp.dir, 'sqlite'), ...service]
    postgresArgs = [
      '--data-dir',
      join(temp.dir, 'postgres'),
      '--database',
      postgres.url,
      ...service,
    ]
    await Promise.all(
      [sqliteArgs, postgresArgs].map(async (args) => {
        for (const profile of PROFILES) {
          const address = sim.chain.walletByProfile(profile as never).address
          const added = await cli([...args, 'watch', 'add', address, '--label', profile])
          expect(added.code, added.stderr).toBe(0)
        }
        const synced = await cli([...args, 'sync', '--once', '--quiet'])
        expect(synced.code, synced.stderr).toBe(0)
      }),
    )
  }, 240_000)
  afterAll(async () => {
    await sim.close()
    await postgres.drop()
    temp.remove()
  })

  it.each(Object.entries(EXPORTS))('%s', async (name, exportArgs) => {
    const files = await Promise.all(
      [sqliteArgs, postgresArgs].map(async (args, i) => {
        const out = join(temp.dir, `${name.replace(/\W+/g, '-')}-${i}.csv`)
        const run = await cli([...args, 'export', ...exportArgs, '--out', out])
        expect(run.code, run.stderr).toBe(0)
        return readFileSync(out)
      }),
    )
    const [fromSqlite, fromPostgres] = files as [Buffer, Buffer]
    // More than a header: the comparison is of real rows.
    expect(fromSqlite.toString('utf8').split('\n').length, name).toBeGreaterThan(2)
    // Line by line first, so that a difference names its row.
    expect(fromPostgres.toString('utf8').split('\n'), name).toEqual(
      fromSqlite.toString('utf8').split('\n'),
    )
    expect(fromPostgres.equals(fromSqlite), `${name}: the PostgreSQL file differs`).toBe(true)
  })
})
