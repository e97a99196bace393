import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore } from '../../../src-main/app/core'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { runCli as cli } from '../../helpers/cli-in-process'
import { simulatorCredits } from '../../helpers/sim-truth'
import { makeTempDir } from '../../helpers/temp-dir'

// The stored API key goes where the settings send it, and nowhere a one-run flag or
// environment variable points: `--service` to another origin must bring its own key
// (`--api-key`), else the run goes without one and says so once.

const STORED_KEY = 'stored-key-1'
const RUN_KEY = 'run-key-2'

describe('CLI: a one-run service brings its own key', () => {
  const temp = makeTempDir()
  let home: RunningSimulator
  let elsewhere: RunningSimulator
  let address: string

  beforeAll(async () => {
    // Both know both keys: whichever the app sends is charged, so a stray key shows.
    const keys = [STORED_KEY, RUN_KEY]
    home = await startSimulator({ seed: 7, live: false, keys, clock: { mode: 'manual' } })
    elsewhere = await startSimulator({ seed: 7, live: false, keys, clock: { mode: 'manual' } })
    address = home.chain.walletByProfile('casual').address
    // The person's settings point at `home`, and the key was entered for it.
    const core = await createCore({ dataDir: temp.dir, shell: 'web', version: 'test' })
    const urls = {
      walletRestBaseUrl: home.url,
      v0RestBaseUrl: home.url,
      jsonRpcUrl: home.url,
    }
    for (const [channel, input] of [
      ['settings:update', urls],
      ['settings:set-api-key', { apiKey: STORED_KEY }],
      ['watchlist:add', { address, label: 'Casual' }],
    ] as const) {
      const answer = await core.dispatch(channel, input)
      if (!answer.ok) throw new Error(`${channel}: ${answer.error.message}`)
    }
    await core.close()
  })
  afterAll(async () => {
    await home?.close()
    await elsewhere?.close()
    temp.remove()
  })

  const sync = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    cli(['--data-dir', temp.dir, ...args, 'sync', '--once'], { env })

  it('--service to another origin without a key: the stored key is not sent, and the run says so', async () => {
    const run = await sync(['--service', elsewhere.url])
    expect(run.code).not.toBe(0)
    expect(run.stderr.match(/The stored API key is not sent to/g)).toHaveLength(1)
    expect(run.stderr).toContain(new URL(elsewhere.url).origin)
    expect(run.stderr).toContain('--api-key')
    expect(await simulatorCredits(elsewhere.url, STORED_KEY)).toBe(0)
  })

  it('HELIOGRAPH_SERVICE_URL is held to the same rule', async () => {
    const run = await sync([], { HELIOGRAPH_SERVICE_URL: elsewhere.url })
    expect(run.code).not.toBe(0)
    expect(run.stderr).toContain('The stored API key is not sent to')
    expect(await simulatorCredits(elsewhere.url, STORED_KEY)).toBe(0)
  })

  it('with its own key, the one-run service is used with that key alone', async () => {
    const run = await sync(['--service', elsewhere.url, '--api-key', RUN_KEY])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).not.toContain('The stored API key')
    expect(await simulatorCredits(elsewhere.url, RUN_KEY)).toBeGreaterThan(0)
    expect(await simulatorCredits(elsewhere.url, STORED_KEY)).toBe(0)
  })

  it('--service to the origin the key was entered for still uses the stored key', async () => {
    const before = await simulatorCredits(home.url, STORED_KEY)
    const run = await sync(['--service', home.url])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).not.toContain('The stored API key')
    expect(await simulatorCredits(home.url, STORED_KEY)).toBeGreaterThan(before)
  })
})
