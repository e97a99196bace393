import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { syncedMirror, type SyncedMirror } from './export-fixture'

const BIN = resolve(import.meta.dirname, '../../../scripts/heliograph.mjs')

/** Runs the real `heliograph` command in a child process, as a person would. */
function cli(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 30_000 })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe('CLI: heliograph export', () => {
  let mirror: SyncedMirror
  beforeAll(async () => {
    mirror = await syncedMirror(['casual', 'idle'])
  })
  afterAll(() => mirror.stop())

  it('writes the filtered export, progress on stderr and the row count on stdout', () => {
    const out = join(mirror.dir, 'cli.csv')
    const casual = mirror.addresses.get('casual') as string
    const result = cli(
      '--data-dir',
      mirror.dir,
      '--data-source',
      'service',
      'export',
      '--format',
      'cointracker',
      '--kind',
      'balance-changes',
      '--wallet',
      casual,
      '--from',
      '2026-07-01',
      '--direction',
      'out',
      '--delimiter',
      ';',
      '--out',
      out,
    )
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toMatch(/export: 100% \(\d+ of \d+ rows\)/)
    const records = parse(readFileSync(out, 'utf8'), { columns: true, delimiter: ';' }) as Record<
      string,
      string
    >[]
    expect(records.length).toBeGreaterThan(0)
    expect(result.stdout.trim()).toBe(`Exported ${records.length} rows to ${out}`)
    expect(Object.keys(records[0]!)).toEqual([
      'Date',
      'Received Quantity',
      'Received Currency',
      'Sent Quantity',
      'Sent Currency',
      'Fee Amount',
      'Fee Currency',
      'Tag',
    ])
    // Every row is from July 2026 on: MM/DD/YYYY dates in UTC.
    for (const r of records)
      expect(
        Number(r.Date!.slice(6, 10)) * 100 + Number(r.Date!.slice(0, 2)),
      ).toBeGreaterThanOrEqual(202607)
  })

  it('leaves out the header with --no-header and accepts tab', () => {
    const out = join(mirror.dir, 'no-header.tsv')
    const result = cli(
      '--data-dir',
      mirror.dir,
      '--data-source',
      'service',
      'export',
      '--kind',
      'balances',
      '--delimiter',
      'tab',
      '--no-header',
      '--out',
      out,
    )
    expect(result.code, result.stderr).toBe(0)
    const lines = readFileSync(out, 'utf8').trimEnd().split('\r\n')
    expect(lines[0]).not.toMatch(/^Snapshot time/)
    expect(lines[0]!.split('\t')).toHaveLength(11)
  })

  it('exits non-zero naming the path and the reason when it cannot write', () => {
    const out = join(mirror.dir, 'missing-folder', 'x.csv')
    const result = cli('--data-dir', mirror.dir, '--data-source', 'service', 'export', '--out', out)
    expect(result.code).not.toBe(0)
    expect(result.stderr).toContain(
      `heliograph: Cannot write the export to ${out}: the folder does not exist (ENOENT).`,
    )
    expect(result.stdout).toBe('')
  })

  it('exits non-zero for a bad option value', () => {
    expect(
      cli('--data-dir', mirror.dir, 'export', '--format', 'excel', '--out', 'x.csv').code,
    ).not.toBe(0)
    const badDate = cli(
      '--data-dir',
      mirror.dir,
      '--data-source',
      'service',
      'export',
      '--to',
      '31/12/2026',
      '--out',
      join(mirror.dir, 'x.csv'),
    )
    expect(badDate.code).not.toBe(0)
    expect(badDate.stderr).toMatch(/to: Date must be YYYY-MM-DD/)
  })
})
