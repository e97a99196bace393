import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ExportFiltersInput } from '@shared/ipc/export-schemas'
import { runExport, type ExportOptions } from '../../../src-main/export/export-job'
import { syncedMirror, type SyncedMirror } from './export-fixture'

// Golden files: the exports of a mirror synced from the simulator with a fixed seed, byte
// for byte. After a deliberate change of a layout, rewrite them with UPDATE_GOLDEN=1 and
// review the diff before committing.
const GOLDEN_DIR = join(import.meta.dirname, 'golden')
const isUpdating = process.env.UPDATE_GOLDEN === '1'

interface GoldenCase {
  file: string
  kind: ExportOptions['kind']
  format: NonNullable<ExportOptions['format']>
  profiles: string[]
  filters?: Omit<ExportFiltersInput, 'wallets'>
  delimiter?: ExportOptions['delimiter']
  includeHeader?: boolean
}

const everyday = ['casual', 'idle']
const CASES: GoldenCase[] = [
  { file: 'balance-changes-full.csv', kind: 'balance-changes', format: 'full', profiles: everyday },
  {
    file: 'balance-changes-koinly.csv',
    kind: 'balance-changes',
    format: 'koinly',
    profiles: everyday,
  },
  {
    file: 'balance-changes-cointracker.csv',
    kind: 'balance-changes',
    format: 'cointracker',
    profiles: everyday,
  },
  { file: 'transfers-full.csv', kind: 'transfers', format: 'full', profiles: everyday },
  { file: 'transfers-koinly.csv', kind: 'transfers', format: 'koinly', profiles: everyday },
  {
    file: 'transfers-cointracker.csv',
    kind: 'transfers',
    format: 'cointracker',
    profiles: everyday,
  },
  {
    file: 'balances-full.csv',
    kind: 'balances',
    format: 'full',
    profiles: [...everyday, 'failed-transactions'],
  },
  ...(['full', 'koinly', 'cointracker'] as const).map((format) => ({
    file: `failed-only-${format}.csv`,
    kind: 'balance-changes' as const,
    format,
    profiles: ['failed-transactions'],
    filters: { failedOnly: true },
  })),
  {
    file: 'balance-changes-full-semicolon-inflows-no-header.csv',
    kind: 'balance-changes',
    format: 'full',
    profiles: everyday,
    filters: { direction: 'in', from: '2026-07-01', to: '2026-09-30' },
    delimiter: ';',
    includeHeader: false,
  },
  {
    file: 'transfers-full-tab.csv',
    kind: 'transfers',
    format: 'full',
    profiles: ['casual'],
    delimiter: '\t',
  },
]

describe('export golden files (simulator seed 7)', () => {
  let mirror: SyncedMirror
  beforeAll(async () => {
    mirror = await syncedMirror(['casual', 'idle', 'failed-transactions'])
  })
  afterAll(() => mirror.stop())

  it.each(CASES)('$file', async (c) => {
    const outPath = join(mirror.dir, c.file)
    const summary = await runExport({
      source: mirror.mirror.exports,
      kind: c.kind,
      format: c.format,
      filters: { ...c.filters, wallets: c.profiles.map((p) => mirror.addresses.get(p) as string) },
      delimiter: c.delimiter ?? ',',
      includeHeader: c.includeHeader ?? true,
      outPath,
    })
    expect(summary.rowsWritten).toBeGreaterThan(0)
    const actual = readFileSync(outPath)
    const goldenPath = join(GOLDEN_DIR, c.file)
    if (isUpdating || !existsSync(goldenPath)) {
      if (!isUpdating)
        throw new Error(`No golden file ${c.file}: run with UPDATE_GOLDEN=1 to create it.`)
      writeFileSync(goldenPath, actual)
      return
    }
    const expected = readFileSync(goldenPath)
    // Text first, so a failure shows a readable diff; then the bytes (line ends included).
    expect(actual.toString('utf8')).toBe(expected.toString('utf8'))
    expect(actual.equals(expected)).toBe(true)
  })
})
