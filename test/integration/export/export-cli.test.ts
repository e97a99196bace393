import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { syncedMirror, type SyncedMirror } from './export-fixture'
import { runCli, type CliRun } from '../../helpers/cli-in-process'

/** Runs the `heliograph` program as a person's command line would (in this process). */
function cli(...args: string[]): Promise<CliRun> {
  return runCli(args)
}

describe('CLI: heliograph export', () => {
  let mirror: SyncedMirror
  beforeAll(async () => {
    mirror = await syncedMirror(['casual', 'idle', 'nft-collector'])
  })
  afterAll(() => mirror.stop())

  it('writes the filtered export, progress on stderr and the row count on stdout', async () => {
    const out = join(mirror.dir, 'cli.csv')
    const casual = mirror.addresses.get('casual') as string
    const result = await cli(
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
    expect(result.stderr).toMatch(/export: 100% \(\d+ of \d+ balance changes\)/)
    const records = parse(readFileSync(out, 'utf8'), { columns: true, delimiter: ';' }) as Record<
      string,
      string
    >[]
    expect(records.length).toBeGreaterThan(0)
    expect(result.stdout.trim()).toMatch(
      new RegExp(
        `^Exported \\d+ balance changes, outgoing, wallet casual, from 1 Jul 2026, as ${records.length} CoinTracker rows to ${out}$`,
      ),
    )
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

  const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'
  const exportArgs = (...args: string[]): string[] => [
    '--data-dir',
    mirror.dir,
    '--data-source',
    'service',
    'export',
    ...args,
  ]

  it('export --mint USDC: a symbol that names one mint in the mirror exports that mint', async () => {
    const out = join(mirror.dir, 'usdc-by-symbol.csv')
    const result = await cli(...exportArgs('--mint', 'USDC', '--out', out))
    expect(result.code, result.stderr).toBe(0)
    const records = parse(readFileSync(out, 'utf8'), { columns: true }) as Record<string, string>[]
    expect(records.length).toBeGreaterThan(0)
    expect(records.every((r) => r.Mint === USDC)).toBe(true)
    const n = records.length
    expect(result.stderr).toContain(
      `Exporting ${n} balance changes of USDC, every watched wallet, all dates`,
    )
    expect(result.stdout.trim()).toBe(
      `Exported ${n} balance changes of USDC, every watched wallet, all dates to ${out}`,
    )
    // The same rows as the mint given by address.
    const byAddress = join(mirror.dir, 'usdc-by-address.csv')
    expect((await cli(...exportArgs('--mint', USDC, '--out', byAddress))).code).toBe(0)
    expect(readFileSync(byAddress, 'utf8')).toBe(readFileSync(out, 'utf8'))
  })

  it('export --mint MOSS: a symbol of several mints lists them and exits non-zero, writing nothing', async () => {
    const out = join(mirror.dir, 'moss.csv')
    const result = await cli(...exportArgs('--mint', 'MOSS', '--out', out))
    expect(result.code).toBe(1)
    const candidates = mirror.database.sqlite
      .prepare(`select mint from mints where symbol = 'MOSS' order by mint`)
      .all() as { mint: string }[]
    expect(candidates.length).toBeGreaterThan(1)
    expect(result.stderr).toContain(
      `heliograph: “MOSS” is the symbol of ${candidates.length} mints in this mirror; give the mint address of the one you mean.`,
    )
    for (const { mint } of candidates)
      expect(result.stderr).toMatch(new RegExp(`^  ${mint}  MOSS`, 'm'))
    expect(existsSync(out)).toBe(false)
    expect(result.stdout).toBe('')
  })

  it('export --mint NOPE: an unknown symbol is refused with a non-zero exit', async () => {
    const out = join(mirror.dir, 'nope.csv')
    const result = await cli(...exportArgs('--mint', 'NOPE', '--out', out))
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(
      'heliograph: No token in this mirror has the symbol “NOPE”; give its mint address instead.',
    )
    expect(existsSync(out)).toBe(false)
  })

  it('progress and the final line count the same rows (a Koinly export says both counts)', async () => {
    const out = join(mirror.dir, 'koinly.csv')
    const casual = mirror.addresses.get('casual') as string
    const result = await cli(...exportArgs('--format', 'koinly', '--wallet', casual, '--out', out))
    expect(result.code, result.stderr).toBe(0)
    const progress = /export: 100% \((\d+) of (\d+) balance changes\)/.exec(result.stderr)
    expect(progress?.[1]).toBe(progress?.[2])
    const records = parse(readFileSync(out, 'utf8'), { columns: true }) as unknown[]
    expect(result.stdout.trim()).toBe(
      `Exported ${progress?.[1]} balance changes, wallet casual, all dates, as ${records.length} Koinly rows to ${out}`,
    )
    expect(result.stderr).toContain(
      `Exporting ${progress?.[1]} balance changes, wallet casual, all dates`,
    )
  })

  it('leaves out the header with --no-header and accepts tab', async () => {
    const out = join(mirror.dir, 'no-header.tsv')
    const result = await cli(
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
    expect(lines[0]!.split('\t')).toHaveLength(12)
  })

  it('exits non-zero naming the path and the reason when it cannot write', async () => {
    const out = join(mirror.dir, 'missing-folder', 'x.csv')
    const result = await cli(
      '--data-dir',
      mirror.dir,
      '--data-source',
      'service',
      'export',
      '--out',
      out,
    )
    expect(result.code).not.toBe(0)
    expect(result.stderr).toContain(
      `heliograph: Cannot write the export to ${out}: the folder does not exist (ENOENT).`,
    )
    expect(result.stdout).toBe('')
  })

  it('exits non-zero for a bad option value', async () => {
    expect(
      (await cli('--data-dir', mirror.dir, 'export', '--format', 'excel', '--out', 'x.csv')).code,
    ).not.toBe(0)
    const badDate = await cli(
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
