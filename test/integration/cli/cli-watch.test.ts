import { afterAll, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'
import { runCli, type CliRun } from '../../helpers/cli-in-process'

/** Runs the `heliograph` program as a person's command line would (in this process). */
function cli(...args: string[]): Promise<CliRun> {
  return runCli(args)
}

describe('CLI: watch commands over the same core', () => {
  const temp = makeTempDir()
  afterAll(() => temp.remove())

  it('adds a wallet and lists it as JSON', async () => {
    const address = testAddress(21)
    const add = await cli('--data-dir', temp.dir, 'watch', 'add', address, '--label', 'Desk')
    expect(add.code, add.stderr).toBe(0)
    expect(add.stdout).toContain(`Watching ${address} (Desk)`)
    const list = await cli('--data-dir', temp.dir, 'watch', 'list', '--json')
    expect(list.code).toBe(0)
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({ address, label: 'Desk', position: 0 }),
    ])
  })

  it('exits non-zero with the problem on stderr for an invalid address', async () => {
    const result = await cli('--data-dir', temp.dir, 'watch', 'add', 'I0lO-not-base58')
    expect(result.code).not.toBe(0)
    expect(result.stderr).toMatch(
      /heliograph: Address is 15 characters long; an address has 32 to 44/,
    )
    expect(result.stdout).toBe('')
  })

  it('removes a wallet and reports a wallet that is not watched', async () => {
    const address = testAddress(22)
    expect((await cli('--data-dir', temp.dir, 'watch', 'add', address)).code).toBe(0)
    expect((await cli('--data-dir', temp.dir, 'watch', 'remove', address)).code).toBe(0)
    const again = await cli('--data-dir', temp.dir, 'watch', 'remove', address)
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/is not on the watchlist/)
  })

  it('rejects a bad --port for serve with the option named', async () => {
    const result = await cli('--data-dir', temp.dir, 'serve', '--port', 'eighty')
    expect(result.code).not.toBe(0)
    expect(result.stderr).toMatch(/--port must be a whole number/)
  })
})
