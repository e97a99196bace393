import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { systemClock } from '@shared/clock'
import { ENDPOINT_CLASSES } from '@shared/api/prices'
import type { AppSettings, CustomRates } from '@shared/ipc/settings-schemas'
import { createCore, type Core } from '../../../src-main/app/core'
import { databasePath } from '../../../src-main/app/data-dir'
import { EventBus } from '../../../src-main/app/event-bus'
import { ServiceSession } from '../../../src-main/app/service-session'
import { openMirror } from '../../../src-main/db/open-mirror'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { makeTempDir } from '../../helpers/temp-dir'

// Issue 29, finding 5: choosing the Custom plan showed no fields and paced like Free. The
// Custom plan now takes its requests per second (the four classes the plans publish) and
// its monthly credits through `settings:update`, refuses a Custom plan without its rates,
// names the field of a bad number in words, and the sync engine paces to the saved rates.

const KEY = 'k29'
const URL_FIELDS = ['walletRestBaseUrl', 'v0RestBaseUrl', 'jsonRpcUrl'] as const
const RATES: CustomRates = { rpc: 7, 'das-enhanced': 3, photon: 4, 'validity-proof': 1.5 }

async function call(core: Core, channel: string, input?: unknown): Promise<unknown> {
  const envelope = await core.dispatch(channel, input)
  if (!envelope.ok) throw new Error(`${channel}: ${envelope.error.message}`)
  return envelope.result
}

describe('the Custom plan takes its rates and credits', () => {
  let sim: RunningSimulator
  let temp: ReturnType<typeof makeTempDir>
  let core: Core

  beforeAll(async () => {
    sim = await startSimulator({ seed: 29, clock: { mode: 'manual' }, keys: [KEY] })
  })
  afterAll(async () => {
    await sim.close()
  })
  beforeEach(async () => {
    temp = makeTempDir()
    core = await createCore({ dataDir: temp.dir, shell: 'web', version: 'test' })
    await call(core, 'settings:update', Object.fromEntries(URL_FIELDS.map((f) => [f, sim.url])))
    await call(core, 'settings:set-api-key', { apiKey: KEY })
  })
  afterEach(async () => {
    await core.close()
    temp.remove()
  })

  it('saves the rates and monthly credits, and settings:get gives them back', async () => {
    const answer = (await call(core, 'settings:update', {
      plan: 'custom',
      customRates: RATES,
      customMonthlyCredits: 2_500_000,
    })) as AppSettings
    expect(answer).toMatchObject({
      plan: 'custom',
      customRates: RATES,
      customMonthlyCredits: 2_500_000,
    })
    expect(await call(core, 'settings:get')).toMatchObject({
      plan: 'custom',
      customRates: RATES,
      customMonthlyCredits: 2_500_000,
    })
  })

  it('refuses the Custom plan without its rates, rather than pacing like Free', async () => {
    const refused = await core.dispatch('settings:update', { plan: 'custom' })
    expect(refused).toMatchObject({
      ok: false,
      error: {
        name: 'InvalidInputError',
        message:
          'The Custom plan needs its requests per second for RPC, DAS and enhanced, Photon and validity proof calls.',
      },
    })
    expect(await call(core, 'settings:get')).toMatchObject({ plan: 'free', customRates: null })
  })

  it('names a bad number by its field in words', async () => {
    const zero = await core.dispatch('settings:update', {
      plan: 'custom',
      customRates: { ...RATES, photon: 0 },
    })
    expect(zero).toMatchObject({
      ok: false,
      error: { message: 'Photon requests per second (Custom plan) must be more than 0.' },
    })
    const fraction = await core.dispatch('settings:update', { customMonthlyCredits: 1.5 })
    expect(fraction).toMatchObject({
      ok: false,
      error: { message: 'Monthly credits (Custom plan) must be a whole number.' },
    })
  })

  it('the sync engine paces each class to the saved custom rate', async () => {
    await call(core, 'settings:update', { plan: 'custom', customRates: RATES })
    const address = sim.chain.walletByProfile('idle').address
    await call(core, 'watchlist:add', { address })
    expect(await call(core, 'sync:run', { address })).toMatchObject({ state: 'ok' })
    await core.close()

    // The session the core builds from these stored settings, opened on the same folder.
    const mirror = await openMirror({ file: databasePath(temp.dir), writeIn: 'this-thread' })
    const session = new ServiceSession({
      source: 'service',
      mirror,
      settings: mirror.settings,
      events: new EventBus(),
      apiKey: () => KEY,
      override: {},
      isWatching: false,
      demo: {},
      clock: systemClock,
    })
    try {
      const { shaper } = await session.runtime()
      expect(Object.fromEntries(ENDPOINT_CLASSES.map((c) => [c, shaper.currentRps(c)]))).toEqual(
        RATES,
      )
    } finally {
      await session.close()
      await mirror.close()
      core = await createCore({ dataDir: temp.dir, shell: 'web', version: 'test' })
    }
  })
})
