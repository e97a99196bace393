import { describe, expect, it } from 'vitest'
import { parseSimulatorArgs } from '../../../src-main/simulator/simulator-args'
import { runCli } from '../../helpers/cli-in-process'

// Issue 29, finding 12: the standalone simulator explains itself. `--help` prints readable
// usage (real line breaks) and exits 0; a refused option says what was wrong on one line,
// then the usage, and exits non-zero. `--now` sets where its clock starts.

describe('heliograph simulator --help and refused options', () => {
  it('--help prints the usage on stdout, one option a line, and exits 0', async () => {
    const run = await runCli(['simulator', '--help'])
    expect(run.code).toBe(0)
    expect(run.stderr).toBe('')
    const lines = run.stdout.split('\n')
    expect(lines[0]).toBe('usage: simulator [options]')
    expect(run.stdout).not.toContain('\\n')
    for (const option of ['--port', '--seed', '--plan', '--population', '--now', '--help'])
      expect(
        lines.some((line) => line.trimStart().startsWith(option)),
        option,
      ).toBe(true)
    expect(run.stdout.endsWith('\n')).toBe(true)
  })

  it('an unknown option exits non-zero with one line naming it, then the usage', async () => {
    const run = await runCli(['simulator', '--what'])
    expect(run.code).not.toBe(0)
    expect(run.stdout).toBe('')
    const lines = run.stderr.split('\n')
    expect(lines[0]).toBe('simulator: unknown option --what')
    expect(lines[1]).toBe('usage: simulator [options]')
    expect(run.stderr).not.toContain('\\n')
  })

  it('a --now it cannot read is refused, naming the accepted forms', async () => {
    const run = await runCli(['simulator', '--now', 'soon'])
    expect(run.code).not.toBe(0)
    expect(run.stderr.split('\n')[0]).toBe(
      'simulator: --now must be an ISO date (2026-11-01 or 2026-11-01T12:00:00Z) or Unix seconds, got soon',
    )
  })

  it('--now takes a day, a moment or Unix seconds; without it the clock starts now', () => {
    expect(parseSimulatorArgs(['--now', '2026-11-01']).startSec).toBe(1_793_491_200)
    expect(parseSimulatorArgs(['--now', '2026-11-01T12:00:00Z']).startSec).toBe(1_793_534_400)
    expect(parseSimulatorArgs(['--now=1793491200']).startSec).toBe(1_793_491_200)
    expect(parseSimulatorArgs([], 1_900_000_000).startSec).toBe(1_900_000_000)
  })
})
