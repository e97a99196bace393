import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../helpers/temp-dir'
import { runCli } from '../../helpers/cli-in-process'

// Issue 29, finding 12: balances at a date have one spelling on the command line,
// `--kind balances --at DAY`; the other is refused with a hint naming the kept one.

describe('export: one spelling for balances at a date', () => {
  const temp = makeTempDir()
  afterAll(() => temp.remove())

  it('--kind balances-at is refused with a hint, before anything is opened or written', async () => {
    const out = join(temp.dir, 'b.csv')
    const run = await runCli([
      '--data-dir',
      temp.dir,
      'export',
      '--kind',
      'balances-at',
      '--at',
      '2025-01-31',
      '--out',
      out,
    ])
    expect(run.code).not.toBe(0)
    expect(run.stderr).toMatch(
      /^heliograph: --kind balances-at is spelled --kind balances --at YYYY-MM-DD/,
    )
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(existsSync(out)).toBe(false)
  })

  it('the help lists the kinds without it and names the kept spelling', async () => {
    const run = await runCli(['export', '--help'])
    expect(run.code).toBe(0)
    // The help wraps its lines: read it as one.
    const help = run.stdout.replace(/\s+/g, ' ')
    expect(help).toMatch(/--kind balances --at DAY/)
    expect(help).toMatch(/choices: "balance-changes", "transfers", "balances", default/)
  })

  it('an unknown kind names the ones there are', async () => {
    const run = await runCli(['--data-dir', temp.dir, 'export', '--kind', 'trades', '--out', 'x'])
    expect(run.code).not.toBe(0)
    expect(run.stderr).toMatch(/--kind must be one of balance-changes, transfers, balances/)
  })
})
