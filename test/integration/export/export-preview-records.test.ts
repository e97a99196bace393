import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src-main/app/core'
import type { ExportFormat, ExportPreview, ExportResult } from '@shared/ipc/export-schemas'
import { syncedMirror, type SyncedMirror } from './export-fixture'
import { FastForwardClock } from '../../helpers/virtual-clock'

// Given a core over a mirror synced from the simulator (an everyday wallet, and one whose
// failed transactions cost a fee and move nothing), when the person previews an export in
// each layout, then the preview's records are the file's records: what `export:run` says
// it wrote and the data lines the file holds, though a tax layout merges swaps into one
// row and writes fee-only transactions, so its records are not the mirror rows it reads.

describe('export preview: the records it states are the records the file holds', () => {
  let mirror: SyncedMirror
  let core: Core

  beforeAll(async () => {
    mirror = await syncedMirror(['casual', 'failed-transactions'])
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

  async function call<T>(channel: string, input: unknown): Promise<T> {
    const envelope = await core.dispatch(channel as 'export:preview', input)
    if (!envelope.ok) throw new Error(envelope.error.message)
    return envelope.result as T
  }

  const cases = [
    ...(['full', 'koinly', 'cointracker'] as const).map((format) => ({
      kind: 'balance-changes' as const,
      format,
    })),
    { kind: 'transfers' as const, format: 'koinly' as ExportFormat },
  ]
  it.each(cases)('$kind in the $format layout', async ({ kind, format }) => {
    const preview = await call<ExportPreview>('export:preview', { kind, format, filters: {} })
    const grant = await call<{ grantId: string }>('export:choose-path', { kind, format })
    const result = await call<ExportResult>('export:run', {
      exportId: `records-${kind}-${format}`,
      kind,
      format,
      destination: { type: 'chosen-path', grantId: grant.grantId },
    })
    const dataLines = (parse(readFileSync(result.path!, 'utf8'), { columns: true }) as unknown[])
      .length
    expect(result.rowsRead).toBe(preview.rows)
    expect(preview.records).toBeGreaterThan(0)
    expect(preview.records).toBe(dataLines)
    expect(preview.records).toBe(result.rowsWritten)
  })

  it('a tax layout’s records differ from the mirror rows it reads on this mirror', async () => {
    const koinly = await call<ExportPreview>('export:preview', {
      kind: 'balance-changes',
      format: 'koinly',
    })
    expect(koinly.records).not.toBe(koinly.rows)
  })
})
