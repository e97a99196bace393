import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runExport } from '../../../src-main/export/export-job'
import { syncedMirror, type SyncedMirror } from './export-fixture'

// Given a mirror synced from the simulator with a wallet of failed transactions (each one
// costs its fee and moves nothing else) beside an everyday wallet, when they are exported
// in CoinTracker's layout, then every row is one CoinTracker imports: a tag from its set
// (blank keeps its own send, receive or trade; docs/service.md, Tax-tool CSV layouts) and
// a quantity sent or received, a fee-only transaction being a send of its fee in SOL.

/** CoinTracker's CSV tags (its "transaction category definitions"), blank for none. */
const COINTRACKER_TAGS = new Set([
  '',
  'staking',
  'stake',
  'unstake',
  'margin',
  'margin fee',
  'margin gain',
  'margin loss',
  'margin rebate',
])

describe('CoinTracker export: every row has a valid tag and moves something', () => {
  let mirror: SyncedMirror
  let rows: Record<string, string>[]
  let failedRows: Record<string, string>[]

  beforeAll(async () => {
    mirror = await syncedMirror(['failed-transactions', 'casual'])
    const exportOf = async (file: string, failedOnly: boolean) => {
      const summary = await runExport({
        source: mirror.mirror.exports,
        kind: 'balance-changes',
        format: 'cointracker',
        filters: { failedOnly },
        outPath: join(mirror.dir, file),
      })
      return parse(readFileSync(summary.path, 'utf8'), { columns: true }) as Record<
        string,
        string
      >[]
    }
    rows = await exportOf('all.csv', false)
    failedRows = await exportOf('failed.csv', true)
  })
  afterAll(async () => {
    await mirror.stop()
  })

  it('holds failed transactions, written as sends of their fee in SOL', () => {
    expect(failedRows.length).toBeGreaterThan(0)
    for (const row of failedRows) {
      expect(row).toMatchObject({
        'Received Quantity': '',
        'Sent Currency': 'SOL',
        'Fee Amount': '',
        'Fee Currency': '',
        Tag: '',
      })
      expect(Number(row['Sent Quantity'])).toBeGreaterThan(0)
    }
  })

  it('gives every row a tag from the layout’s set and a quantity with its currency', () => {
    expect(rows.length).toBeGreaterThan(failedRows.length)
    for (const row of rows) {
      expect(COINTRACKER_TAGS.has(row.Tag as string), `tag “${row.Tag}”`).toBe(true)
      const sends = row['Sent Quantity'] !== '' && row['Sent Currency'] !== ''
      const receives = row['Received Quantity'] !== '' && row['Received Currency'] !== ''
      expect(sends || receives, JSON.stringify(row)).toBe(true)
    }
  })
})
