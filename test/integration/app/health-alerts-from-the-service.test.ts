import type { HealthStatus } from '@shared/ipc/health-schemas'
import type { WalletSyncStatus } from '@shared/ipc/sync-schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src-main/app/core'
import type { Envelope } from '@shared/ipc/envelope'
import { databasePath } from '../../../src-main/app/data-dir'
import { openDatabase } from '../../../src-main/db/sqlite/database'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { startAlertReceiver, type AlertReceiver } from '../../helpers/alert-receiver'
import { runCli } from '../../helpers/cli-in-process'
import { readStoredMirror } from '../../helpers/stored-mirror'
import { makeTempDir } from '../../helpers/temp-dir'
import { FastForwardClock } from '../../helpers/virtual-clock'

// Issue 30, "never silent": every reason syncing stops or slows is a health condition with
// one health alert in the outbox (to every channel), the first line of `status`, the IPC
// health status, and a refusal of "Sync now" that says why. The service is the simulator
// over HTTP; its fault injector makes it answer 401, 429, or not at all.

interface AlertRow {
  kind: string
  health_kind: string | null
  text: string
  dedupe_key: string
  channels: string[]
}

describe('health conditions from what the service answers', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let core: Core
  let casual: string
  let trader: string

  const dispatch = (channel: string, input: unknown): Promise<Envelope<unknown>> =>
    core.dispatch(channel, input)
  const call = async <T>(channel: string, input: unknown): Promise<T> => {
    const answer = await dispatch(channel, input)
    if (!answer.ok) throw new Error(`${channel}: ${JSON.stringify(answer.error)}`)
    return answer.result as T
  }
  const fault = async (spec: object): Promise<void> => {
    const res = await fetch(`${sim.url}/__sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(spec),
    })
    expect(res.status).toBe(200)
  }
  const clearFaults = async (): Promise<void> => {
    await fetch(`${sim.url}/__sim/faults`, { method: 'DELETE' })
  }
  const health = (): Promise<HealthStatus> => call<HealthStatus>('health:status', undefined)
  const healthAlerts = (): Promise<AlertRow[]> =>
    readStoredMirror({ dataDir: temp.dir }, async (db) => {
      const alerts = await db
        .selectFrom('alerts')
        .select(['id', 'kind', 'health_kind', 'text', 'dedupe_key'])
        .where('kind', '=', 'health')
        .orderBy('id')
        .execute()
      const deliveries = await db.selectFrom('alert_deliveries').selectAll().execute()
      return alerts.map(({ id, ...a }) => ({
        ...a,
        channels: deliveries
          .filter((d) => d.alert_id === id)
          .map((d) => d.channel)
          .sort(),
      }))
    })

  beforeAll(async () => {
    sim = await startSimulator({ seed: 30, clock: { mode: 'manual' } })
    core = await createCore({
      dataDir: temp.dir,
      shell: 'web',
      version: 'test',
      serviceUrl: sim.url,
      apiKey: 'demo',
      clock: new FastForwardClock(),
    })
    casual = sim.chain.walletByProfile('casual').address
    trader = sim.chain.walletByProfile('idle').address
    await call('watchlist:add', { address: casual, label: 'Casual' })
    await call('watchlist:add', { address: trader, label: 'Idle' })
    await call('sync:run', { address: casual })
    await call('sync:run', { address: trader })
    // Two outbound channels, as `notify add` keeps them: a health alert goes to every one.
    const opened = await openDatabase(databasePath(temp.dir))
    await opened.db
      .insertInto('notify_channels')
      .values(
        ['ops-hook', 'team-chat'].map((name) => ({
          name,
          format: 'json' as const,
          url_shown: `https://hooks.example/${name}`,
          chat_id: null,
          created_at_sec: 0,
        })),
      )
      .execute()
    await opened.close()
  }, 120_000)
  afterAll(async () => {
    await core?.close()
    await sim?.close()
    temp.remove()
  })

  it('the service starts answering 401: one health alert, status leads with it, Sync now says why; a success resolves it', async () => {
    expect((await health()).conditions).toEqual([])
    await fault({ kind: 'error', status: 401, message: 'Invalid API key' })

    // Every stream of the wallet gets a 401: many calls, one condition and one alert.
    const outcome = await call<{ state: string }>('sync:run', { address: trader })
    expect(outcome.state).toBe('error')
    await call('sync:run', { address: trader })
    const status = await health()
    expect(status.conditions).toEqual([
      expect.objectContaining({
        kind: 'key-rejected',
        isSyncStopped: true,
        headline: expect.stringMatching(
          /^Syncing stopped: the service rejected the API key \(HTTP 401\) \(since \d\d:\d\d UTC\)\.$/,
        ),
      }),
    ])
    const alerts = await healthAlerts()
    expect(alerts).toEqual([
      expect.objectContaining({
        health_kind: 'key-rejected',
        dedupe_key: `health:key-rejected:${status.conditions[0]?.sinceSec}`,
        channels: ['desktop', 'ops-hook', 'team-chat'],
        text: expect.stringContaining('the service rejected the API key'),
      }),
    ])

    // A wallet with nothing failed no longer reads "up to date" while syncing is stopped.
    const wallets = await call<WalletSyncStatus[]>('sync:status', undefined)
    expect(wallets.find((w) => w.address === casual)).toMatchObject({
      state: 'stopped',
      message: expect.stringContaining('rejected the API key'),
    })

    // "Sync now" refuses with the reason, through the error envelope.
    const refused = await dispatch('sync:start', {})
    expect(refused).toMatchObject({
      ok: false,
      error: {
        name: 'SyncStoppedError',
        message: expect.stringMatching(/^Not synced: syncing stopped: the service rejected/),
      },
    })

    // `status` (a read-only command beside the running app) leads with it.
    const cli = await runCli(['--data-dir', temp.dir, 'status'])
    expect(cli.code, cli.stderr).toBe(0)
    expect(cli.stdout.split('\n')[0]).toMatch(
      /^Syncing stopped: the service rejected the API key \(HTTP 401\) \(since \d\d:\d\d UTC\)\. Replace it in Settings/,
    )
    const json = JSON.parse((await runCli(['--data-dir', temp.dir, 'health', '--json'])).stdout)
    expect(json.health).toEqual([
      {
        kind: 'key-rejected',
        since: status.conditions[0]?.since,
        detail: 'The service rejected the API key (HTTP 401)',
      },
    ])
    // `status --json` keeps its shape (the wallets' list) for the scripts that read it.
    const statuses = JSON.parse((await runCli(['--data-dir', temp.dir, 'status', '--json'])).stdout)
    expect(statuses).toHaveLength(2)

    // The service accepts the key again: the next call resolves it, with one line saying so.
    await clearFaults()
    await call('sync:run', { address: trader })
    expect((await health()).conditions).toEqual([])
    expect((await healthAlerts()).map((a) => a.health_kind)).toEqual([
      'key-rejected',
      'key-rejected-resolved',
    ])
    expect(await call<WalletSyncStatus[]>('sync:status', undefined)).toEqual(
      expect.arrayContaining([expect.objectContaining({ address: casual, state: 'up-to-date' })]),
    )
    const clean = await runCli(['--data-dir', temp.dir, 'status'])
    expect(clean.stdout.split('\n')[0]).toMatch(/^Casual {2}/)
  }, 120_000)

  it('persistent 429s raise rate-limited once; the call that gets through resolves it', async () => {
    await fault({ kind: 'rateLimit', retryAfterSec: 1, count: 8 })
    await call('sync:run', { address: casual })
    expect((await healthAlerts()).map((a) => a.health_kind)).toEqual([
      'key-rejected',
      'key-rejected-resolved',
      'rate-limited',
      'rate-limited-resolved',
    ])
    expect((await health()).conditions).toEqual([])
  }, 120_000)

  it('the daily budget spent: a budget-100 alert, and Sync now refuses with the reason', async () => {
    const overview = await call<{ todayCredits: number }>('credits:overview', undefined)
    const budget = overview.todayCredits + 150
    await call('settings:update', { dailyBudget: budget })
    await clearFaults()
    // Each incremental sync reads its streams' newest pages (100 credits a wallet page):
    // one wallet's sync meets the budget, and the next is refused before any call.
    const first = await call<{ state: string }>('sync:run', { address: casual })
    const second = await dispatch('sync:run', { address: trader })
    expect([
      first.state,
      second.ok ? (second.result as { state: string }).state : 'refused',
    ]).toContain('budget')
    // What stops syncing leads, the warning after it: the banner's and status's first line.
    const kinds = (await health()).conditions.map((c) => c.kind)
    expect(kinds).toEqual(['budget-100', 'budget-80'])
    const status = await runCli(['--data-dir', temp.dir, 'status'])
    const lines = status.stdout.split('\n')
    expect(lines[0]).toMatch(/^Syncing stopped: the daily budget of [\d,]+ credits is spent/)
    expect(lines[1]).toMatch(/^Budget warning: 80% of the daily budget/)
    // A wallet's line says why once, not "stopped: Syncing stopped: …".
    const stopped = lines.filter((l) => / {2}stopped: /.test(l))
    expect(stopped.length).toBeGreaterThan(0)
    for (const line of stopped)
      expect(line).toMatch(
        /^\S+ {2}\S+ {2}stopped: the daily budget of [\d,]+ credits is spent, since \d\d:\d\d UTC$/,
      )
    const budgetAlert = (await healthAlerts()).filter((a) => a.health_kind === 'budget-100')
    expect(budgetAlert).toHaveLength(1)
    const limit = budget.toLocaleString('en-US')
    expect(budgetAlert[0]?.text).toContain(`the daily budget of ${limit} credits is spent`)

    const refused = await dispatch('sync:start', {})
    expect(refused).toMatchObject({
      ok: false,
      error: {
        name: 'SyncStoppedError',
        message: expect.stringContaining(`the daily budget of ${limit} credits is spent (since `),
      },
    })
    expect(refused.ok ? '' : refused.error.message).toContain('Syncing resumes at 00:00 UTC')

    // Removing the budget ends the stop, with its resolution alert in the past tense.
    await call('settings:update', { dailyBudget: null })
    expect((await health()).conditions.map((c) => c.kind)).not.toContain('budget-100')
    const resolved = (await healthAlerts()).find((a) => a.health_kind === 'budget-100-resolved')
    expect(resolved?.text).toMatch(
      /^Syncing resumed: the daily budget allows calls again \(spent from \d\d:\d\d to \d\d:\d\d UTC\)\.$/,
    )
  }, 120_000)
})

describe('the service goes away', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let core: Core

  beforeAll(async () => {
    sim = await startSimulator({ seed: 31, clock: { mode: 'manual' } })
    core = await createCore({
      dataDir: temp.dir,
      shell: 'web',
      version: 'test',
      serviceUrl: sim.url,
      apiKey: 'demo',
      clock: new FastForwardClock(),
    })
  })
  afterAll(async () => {
    await core?.close()
    temp.remove()
  })

  it('unreachable: a health condition, and Sync now says so', async () => {
    const address = sim.chain.walletByProfile('idle').address
    expect((await core.dispatch('watchlist:add', { address })).ok).toBe(true)
    await sim.close()
    const run = await core.dispatch('sync:run', { address })
    expect(run.ok).toBe(true)
    const status = await core.dispatch('health:status', undefined)
    expect(status).toMatchObject({
      ok: true,
      result: {
        conditions: [
          expect.objectContaining({
            kind: 'unreachable',
            headline: expect.stringMatching(/^Syncing stopped: the data service cannot be reached/),
          }),
        ],
      },
    })
    const refused = await core.dispatch('sync:start', {})
    expect(refused.ok).toBe(false)
  }, 120_000)
})

describe('a receiver gets the health alert (issue 30, "done means")', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let receiver: AlertReceiver
  let core: Core

  beforeAll(async () => {
    sim = await startSimulator({ seed: 34, clock: { mode: 'manual' } })
    receiver = await startAlertReceiver()
    core = await createCore({
      dataDir: temp.dir,
      shell: 'web',
      version: 'test',
      serviceUrl: sim.url,
      apiKey: 'demo',
      clock: new FastForwardClock(),
      isWatching: true,
    })
    const added = await core.dispatch('notify:add', {
      name: 'ops',
      format: 'json',
      url: receiver.url,
      secret: 'k3y-for-tests',
    })
    expect(added.ok, JSON.stringify(added)).toBe(true)
  })
  afterAll(async () => {
    await core?.close()
    await receiver?.close()
    await sim?.close()
    temp.remove()
  })

  it('watching meets 401s: one health alert reaches the receiver, however many calls failed', async () => {
    await fetch(`${sim.url}/__sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'error', status: 401, message: 'Invalid API key' }),
    })
    expect(
      (await core.dispatch('watchlist:add', { address: sim.chain.walletByProfile('idle').address }))
        .ok,
    ).toBe(true)
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBeGreaterThan(0)
    const body = JSON.parse(receiver.received[0]?.body ?? '{}') as {
      healthKind: string
      text: string
    }
    expect(body).toMatchObject({
      healthKind: 'key-rejected',
      text: expect.stringMatching(/^Syncing stopped: the service rejected the API key/),
    })
    // Rounds keep failing meanwhile; the condition stays one alert.
    expect(receiver.received.filter((p) => p.body.includes('"key-rejected"'))).toHaveLength(1)
  }, 60_000)
})

describe('a budget stop ends with the day', () => {
  const temp = makeTempDir()
  // An hour before midnight UTC: waits jump ahead, the first sync's too.
  const clock = new FastForwardClock({ startMs: Date.UTC(2026, 10, 26, 23, 0) })
  const midnightSec = Date.UTC(2026, 10, 27) / 1000
  let sim: RunningSimulator
  let core: Core

  beforeAll(async () => {
    sim = await startSimulator({ seed: 35, clock: { mode: 'manual' } })
    core = await createCore({
      dataDir: temp.dir,
      shell: 'web',
      version: 'test',
      serviceUrl: sim.url,
      apiKey: 'demo',
      clock,
      isWatching: true,
    })
  })
  afterAll(async () => {
    await core?.close()
    clock.stop()
    await sim?.close()
    temp.remove()
  })

  it('watching stopped by the daily budget resumes at 00:00 UTC, and the stop is resolved', async () => {
    expect((await core.dispatch('settings:update', { dailyBudget: 150 })).ok).toBe(true)
    const address = sim.chain.walletByProfile('casual').address
    expect((await core.dispatch('watchlist:add', { address })).ok).toBe(true)
    const alerts = () =>
      readStoredMirror({ dataDir: temp.dir }, (db) =>
        db
          .selectFrom('alerts')
          .select(['health_kind', 'fired_at_sec'])
          .where('kind', '=', 'health')
          .orderBy('id')
          .execute(),
      )
    await expect
      .poll(async () => (await alerts()).map((a) => a.health_kind), { timeout: 30_000 })
      .toContain('budget-100-resolved')
    const all = await alerts()
    const stop = all.find((a) => a.health_kind === 'budget-100')
    const resolved = all.find((a) => a.health_kind === 'budget-100-resolved')
    expect(stop?.fired_at_sec).toBeLessThan(midnightSec)
    expect(resolved?.fired_at_sec).toBeGreaterThanOrEqual(midnightSec)
  }, 60_000)
})
