import { afterEach, describe, expect, it } from 'vitest'
import { VirtualClock } from '../../helpers/virtual-clock'
import { HealthMonitor } from '../../../src-main/alerts/health-monitor'
import { StorageError } from '@shared/ipc/ipc-errors'
import { openEngineMirror } from '../../helpers/engine-mirror'
import { ENGINES } from '../../helpers/sync-fixture'

// Health conditions on both engines: raising an active condition again writes no second
// alert, resolving writes one "resolved" line, and a condition raised again after it was
// resolved is a new one (its own since, its own alert). The monitor turns a stream of
// signs (every call, every budget check) into those few writes.

const failedCall = (errorName: string) =>
  ({ operation: 'wallet.history', credits: 0, status: 'error', errorName, durationMs: 1 }) as const
const okCall = { operation: 'wallet.history', credits: 100, status: 'ok', durationMs: 0 } as const

describe.each(ENGINES)('health conditions on %s', (engine) => {
  let drop: () => Promise<void> = async () => {}
  afterEach(() => drop())

  it('raise, raise again, resolve, raise anew: one alert each time the state changes', async () => {
    const opened = await openEngineMirror(engine)
    drop = opened.drop
    const { health, alerts } = opened.mirror
    const alertOf = (c: { kind: string; sinceSec: number }, channels: readonly string[]) => ({
      kind: 'health' as const,
      ruleId: null,
      ruleName: null,
      healthKind: c.kind,
      walletAddress: null,
      signature: null,
      firedAtSec: c.sinceSec,
      text: c.kind,
      detail: { signatures: [], amounts: [], transactionKind: null },
      deliverAfterSec: c.sinceSec,
      dedupeKey: `health:${c.kind}:${c.sinceSec}`,
      channels,
    })
    expect(await health.raise('disk-full', 'The disk is full', 100, alertOf)).toMatchObject({
      kind: 'disk-full',
      sinceSec: 100,
      detail: 'The disk is full',
    })
    expect(await health.raise('disk-full', 'The disk is still full', 150, alertOf)).toBeNull()
    expect(await health.active()).toEqual([
      { kind: 'disk-full', sinceSec: 100, detail: 'The disk is still full' },
    ])
    const resolvedOf = (c: { kind: string; sinceSec: number }, channels: readonly string[]) => ({
      ...alertOf(c, channels),
      healthKind: `${c.kind}-resolved`,
      firedAtSec: 200,
      dedupeKey: `health:${c.kind}-resolved:${c.sinceSec}`,
    })
    expect(await health.resolve('disk-full', 200, resolvedOf)).toMatchObject({ sinceSec: 100 })
    expect(await health.resolve('disk-full', 210, resolvedOf)).toBeNull()
    expect(await health.active()).toEqual([])
    expect(await health.raise('disk-full', 'Full again', 300, alertOf)).toMatchObject({
      sinceSec: 300,
    })
    const written = await alerts.history({ limit: 10 })
    expect(written.map((a) => [a.healthKind, a.firedAt])).toEqual([
      ['disk-full', new Date(300_000).toISOString()],
      ['disk-full-resolved', new Date(200_000).toISOString()],
      ['disk-full', new Date(100_000).toISOString()],
    ])
  })

  it('the monitor: many rejected calls are one condition and one alert; a later success resolves it', async () => {
    const opened = await openEngineMirror(engine)
    drop = opened.drop
    const clock = new VirtualClock(Date.UTC(2026, 10, 27, 12, 3))
    const monitor = new HealthMonitor({ store: opened.mirror.health, clock })
    for (let i = 0; i < 20; i++) monitor.onCall(failedCall('AuthError'))
    // Four 429s in a row are weather; the fifth makes it persistent.
    for (let i = 0; i < 4; i++) monitor.onCall(failedCall('RateLimitedError'))
    await monitor.idle()
    expect((await monitor.active()).map((c) => c.kind)).toEqual(['key-rejected'])
    monitor.onCall(failedCall('RateLimitedError'))
    // A full disk reaches the monitor as the StorageError the writer throws.
    monitor.onStreamFailed(
      new StorageError('Could not write: the disk is full.', { code: 'SQLITE_FULL' }),
    )
    monitor.onStreamFailed(new Error('not storage'))
    expect((await monitor.active()).map((c) => c.kind).sort()).toEqual([
      'disk-full',
      'key-rejected',
      'rate-limited',
    ])
    const history = await opened.mirror.alerts.history({ limit: 10 })
    expect(history.map((a) => a.healthKind).sort()).toEqual([
      'disk-full',
      'key-rejected',
      'rate-limited',
    ])
    expect(history.find((a) => a.healthKind === 'key-rejected')?.text).toBe(
      'Syncing stopped: the service rejected the API key (HTTP 401) (since 12:03 UTC). ' +
        'Replace it in Settings (the command line: --api-key or HELIOGRAPH_API_KEY); syncing resumes once a call succeeds.',
    )

    await clock.advance(17 * 60_000)
    monitor.onCall(okCall)
    monitor.onWalletWritten()
    expect(await monitor.active()).toEqual([])
    const resolved = (await opened.mirror.alerts.history({ limit: 3 })).map((a) => a.text)
    expect(resolved).toContain(
      'Syncing resumed: the service accepts the API key again (rejected from 12:03 to 12:20 UTC).',
    )
  })

  it('the monitor: budget at 80 % warns, a refusal stops, and only a raise or a new day ends it', async () => {
    const opened = await openEngineMirror(engine)
    drop = opened.drop
    const clock = new VirtualClock(Date.UTC(2026, 10, 27, 12))
    const monitor = new HealthMonitor({ store: opened.mirror.health, clock })
    const dayStartMs = Date.UTC(2026, 10, 27)
    const check = (day: number, dailyCredits: number | null, refused: 'daily' | null) =>
      monitor.onSpending({
        day,
        month: day,
        dailyCredits,
        monthlyCredits: null,
        dayStartMs,
        monthStartMs: Date.UTC(2026, 10, 1),
        refused,
      })
    check(3_000, 5_000, null)
    expect(await monitor.active()).toEqual([])
    check(4_000, 5_000, null)
    check(4_950, 5_000, 'daily')
    // A smaller call still fits under the same budget: the stop holds, no second alert.
    check(4_950, 5_000, null)
    check(4_950, 5_000, 'daily')
    expect((await monitor.active()).map((c) => c.kind).sort()).toEqual(['budget-100', 'budget-80'])
    expect((await monitor.active()).find((c) => c.kind === 'budget-100')?.detail).toBe(
      'The daily budget of 5,000 credits is spent',
    )
    check(4_950, 10_000, null)
    expect(await monitor.active()).toEqual([])
    const kinds = (await opened.mirror.alerts.history({ limit: 10 })).map((a) => a.healthKind)
    expect(kinds.sort()).toEqual([
      'budget-100',
      'budget-100-resolved',
      'budget-80',
      'budget-80-resolved',
    ])
  })
})
