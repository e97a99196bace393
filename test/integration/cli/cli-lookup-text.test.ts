import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { runCli as cli, type CliRun } from '../../helpers/cli-in-process'
import { makeTempDir } from '../../helpers/temp-dir'

// `lookup` prints text a person reads: money with separators to the cent, counts with
// their nouns ("1 credit", "6 tokens"), one date format, amounts with their token's name.

describe('CLI: look-up text', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let base: string[]

  const ok = async (args: string[]): Promise<CliRun> => {
    const run = await cli([...base, ...args])
    expect(run.code, run.stderr).toBe(0)
    return run
  }

  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, live: false, clock: { mode: 'manual' }, keys: ['demo'] })
    base = ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']
  }, 60_000)
  afterAll(async () => {
    await sim.close()
    temp.remove()
  })

  it('a wallet: value as $x,xxx.xx, tokens and assets counted in words, symbols not mints', async () => {
    const whale = sim.chain.walletByProfile('whale').address
    const answer = JSON.parse((await ok(['lookup', whale, '--json'])).stdout) as {
      balances: { totalUsdValue: number; balances: { symbol: string | null; mint: string }[] }
      assets: { items: unknown[] }
    }
    // The same answer again, from the cache, as text.
    const text = (await ok(['lookup', whale])).stdout
    const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })
    expect(answer.balances.totalUsdValue).toBeGreaterThan(1_000)
    expect(text).toContain(`Value: ${usd.format(answer.balances.totalUsdValue)};`)
    expect(text).toMatch(/Value: \$\d{1,3}(,\d{3})+\.\d{2};/)
    const tokens = answer.balances.balances.length
    const assets = answer.assets.items.length
    expect(text).toContain(
      `${tokens} ${tokens === 1 ? 'token' : 'tokens'}, ${assets} ${assets === 1 ? 'asset' : 'assets'}`,
    )
    expect(text).not.toMatch(/\(s\)/)
    expect(text).toMatch(/^From the cache \(\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC, 510 credits\):$/m)
    for (const b of answer.balances.balances.filter((x) => x.symbol))
      expect(text).toMatch(new RegExp(`^  ${b.symbol} `, 'm'))
    expect(text).not.toContain('toFixed')
  })

  it('a priority fee costs "1 credit", never "1 credits"', async () => {
    const casual = sim.chain.walletByProfile('casual').address
    const text = (await ok(['fee', '--account', casual])).stdout
    expect(text).toMatch(/^Fetched \(\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC, 1 credit\):$/m)
  })

  it('compressed SOL in SOL, not lamports', async () => {
    const holder = sim.chain.walletByProfile('compressed-holder').address
    const text = (await ok(['compressed', 'owner', holder])).stdout
    expect(text).toMatch(/^Compressed SOL: [\d,]+(\.\d+)? SOL$/m)
    expect(text).not.toMatch(/lamports/)
    expect(text).toMatch(/^\d[\d,]* accounts?; \d[\d,]* token balances?$/m)
  })
})
