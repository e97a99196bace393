import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { databasePath } from '../../../src-main/app/data-dir'
import { openSqliteMirror } from '../../../src-main/db/sqlite/mirror'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { makeTempDir } from '../../helpers/temp-dir'
import { runCli as cli } from '../../helpers/cli-in-process'

// Given a label stored before labels were checked and a service whose error text carries
// terminal escape sequences (the simulator's error fault), when the CLI prints them, then
// the terminal receives no control character and no bidi override: each shows as a
// visible escape, and JSON output stays valid JSON with the same values.

const KEY = 'test-key-5150'

// Retitle the window, clear the screen, ring the bell, then reverse the rest of the line.
const HOSTILE = '\u001b]0;owned\u0007\u001b[2J\u009b31m\u202eevil'
const LABEL = `Savings ${HOSTILE}`
const SERVICE_TEXT = `quota exceeded ${HOSTILE}`

/** What a terminal would act on: C0 and C1 controls, DEL, bidi controls, line separators. */
const TERMINAL_ACTIVE = /[\p{Cc}\p{Bidi_Control}\u2028\u2029]/u

/** Every line of an output, without its line break, must be free of what a terminal acts on. */
function expectTerminalSafe(output: string): void {
  for (const line of output.split('\n')) expect(line).not.toMatch(TERMINAL_ACTIVE)
}

describe('Labels and service error text with terminal escape sequences are printed raw by the CLI', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let base: string[]
  let address: string

  beforeAll(async () => {
    sim = await startSimulator({ seed: 5, clock: { mode: 'manual' }, keys: [KEY] })
    base = ['--data-dir', temp.dir, '--service', sim.url, '--api-key', KEY]
    address = sim.chain.walletByProfile('idle').address
    // A label from before labels were checked goes straight into the mirror.
    const mirror = await openSqliteMirror(databasePath(temp.dir))
    await mirror.watchlist.add({ address, label: LABEL }, 1_700_000_000)
    await mirror.close()
    const fault = await fetch(`${sim.url}/__sim/faults`, {
      method: 'POST',
      body: JSON.stringify({ kind: 'error', status: 400, message: SERVICE_TEXT }),
    })
    expect(fault.status).toBe(200)
  })
  afterAll(async () => {
    await sim.close()
    temp.remove()
  })

  it('watch list shows the label with its escapes visible', async () => {
    const run = await cli([...base, 'watch', 'list'])
    expect(run.code, run.stderr).toBe(0)
    expectTerminalSafe(run.stdout)
    expect(run.stdout).toContain('Savings \\x1b]0;owned\\x07\\x1b[2J\\x9b31m\\u202eevil')
  })

  it('sync and status print the service’s error text escaped', async () => {
    const sync = await cli([...base, 'sync', '--once'])
    expect(sync.code).toBe(1)
    expectTerminalSafe(sync.stdout + sync.stderr)
    expect(sync.stderr).toContain('quota exceeded \\x1b]0;owned')
    const status = await cli([...base, 'status'])
    expect(status.code, status.stderr).toBe(0)
    expectTerminalSafe(status.stdout)
    expect(status.stdout).toContain('quota exceeded \\x1b]0;owned')
  })

  it('JSON output escapes them too and still parses to the stored values', async () => {
    const run = await cli([...base, 'watch', 'list', '--json'])
    expect(run.code, run.stderr).toBe(0)
    expectTerminalSafe(run.stdout)
    expect(JSON.parse(run.stdout)).toEqual([expect.objectContaining({ address, label: LABEL })])
  })

  it('the check can fail: the raw text is what a terminal would act on', () => {
    expect(() => expectTerminalSafe(LABEL)).toThrow()
  })
})
