import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src-main/app/core'
import type {
  ExportFiltersInput,
  ExportFormat,
  ExportKind,
  ExportPreview,
  ExportResult,
} from '@shared/ipc/export-schemas'
import { fileNamePart } from '@shared/ipc/export-schemas'
import { syncedMirror, type SyncedMirror } from './export-fixture'
import { FastForwardClock } from '../../helpers/virtual-clock'

// Given a core over a synced mirror, when the person asks what an export of a filtered
// view will hold, then the answer names its rows, filters and file, and the run writes
// exactly those rows into a file of that name.

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'

describe('export preview: what an export holds, and its file name', () => {
  let mirror: SyncedMirror
  let core: Core
  let casual: string
  let idle: string

  beforeAll(async () => {
    mirror = await syncedMirror(['casual', 'idle'])
    casual = mirror.addresses.get('casual') as string
    idle = mirror.addresses.get('idle') as string
    core = await createCore({
      dataDir: mirror.dir,
      shell: 'web',
      version: 'test',
      dataSource: 'service',
      clock: new FastForwardClock({ wallSec: () => 1_793_491_200 }),
      choosePath: async ({ fileName }) => join(mirror.dir, fileName),
    })
  })
  afterAll(async () => {
    await core.close()
    await mirror.stop()
  })

  async function call<T>(
    channel: 'export:preview' | 'export:run' | 'export:choose-path',
    input: unknown,
  ): Promise<T> {
    const envelope = await core.dispatch(channel, input)
    if (!envelope.ok) throw new Error(envelope.error.message)
    return envelope.result as T
  }
  const previewOf = (kind: ExportKind, format: ExportFormat, filters: ExportFiltersInput) =>
    call<ExportPreview>('export:preview', { kind, format, filters })

  it('an export of a filtered view says before writing what it will hold and how many rows, then writes exactly those', async () => {
    const filters = {
      wallets: [casual],
      mints: [USDC],
      direction: 'in' as const,
      from: '2026-07-01',
      to: '2026-10-15',
    }
    const preview = await previewOf('balance-changes', 'full', filters)
    expect(preview.rows).toBeGreaterThan(0)
    expect(preview.description).toBe(
      `${preview.rows} balance changes of USDC, incoming, wallet casual, 1 Jul – 15 Oct 2026`,
    )
    const grant = await call<{ grantId: string; path: string }>('export:choose-path', {
      kind: 'balance-changes',
      filters,
    })
    const result = await call<ExportResult>('export:run', {
      exportId: 'preview-then-run',
      kind: 'balance-changes',
      filters,
      destination: { type: 'chosen-path', grantId: grant.grantId },
    })
    expect(result.rowsRead).toBe(preview.rows)
    expect(result.description).toBe(preview.description)
    expect(result.fileName).toBe(preview.fileName)
    const body = readFileSync(result.path!, 'utf8')
    const records = parse(body, { columns: true }) as Record<string, string>[]
    expect(records).toHaveLength(preview.rows)
  })

  it('every export gets a file name of its wallet, kind, layout and dates', async () => {
    const names = await Promise.all([
      previewOf('balance-changes', 'koinly', {
        wallets: [casual],
        from: '2026-07-01',
        to: '2026-10-15',
      }),
      previewOf('balance-changes', 'koinly', {
        wallets: [idle],
        from: '2026-07-01',
        to: '2026-10-15',
      }),
      previewOf('balance-changes', 'full', {
        wallets: [casual],
        from: '2026-07-01',
        to: '2026-10-15',
      }),
      previewOf('transfers', 'cointracker', { wallets: [casual], from: '2026-07-01' }),
      previewOf('balances', 'full', { wallets: [casual, idle] }),
      previewOf('balance-changes', 'full', {}),
    ]).then((previews) => previews.map((p) => p.fileName))
    expect(names).toEqual([
      'heliograph-casual-balance-changes-koinly-2026-07-01_to_2026-10-15.csv',
      'heliograph-idle-balance-changes-koinly-2026-07-01_to_2026-10-15.csv',
      'heliograph-casual-balance-changes-full-2026-07-01_to_2026-10-15.csv',
      'heliograph-casual-transfers-cointracker-2026-07-01_to_2026-11-01.csv',
      'heliograph-2-wallets-balances-full-as-of-2026-11-01.csv',
      'heliograph-all-wallets-balance-changes-full-to-2026-11-01.csv',
    ])
  })

  it('a wallet label in a file name is made safe for every file system', async () => {
    expect(fileNamePart('Ops/Cold: "Q1" <test>?*|\\ \u202e\u0007 .')).toBe('Ops-Cold-Q1-test')
    const renamed = await core.dispatch('watchlist:rename', {
      address: idle,
      label: '../Trésor\\Q1: "cold"',
    })
    expect(renamed.ok).toBe(true)
    const { fileName } = await previewOf('balance-changes', 'full', { wallets: [idle] })
    expect(fileName).toBe('heliograph-Trésor-Q1-cold-balance-changes-full-to-2026-11-01.csv')
  })

  it('a preview of a layout the kind does not have is refused, as the run would be', async () => {
    const reply = await core.dispatch('export:preview', { kind: 'balances', format: 'koinly' })
    expect(reply.ok).toBe(false)
    if (!reply.ok) expect(reply.error.name).toBe('InvalidInputError')
  })
})
