import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src-main/app/core'
import { FileSecretStore } from '../../../src-main/app/secret-store'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { makeTempDir } from '../../helpers/temp-dir'

// Issue 29, finding 5: setting up one's own service took the key twice: the key cleared
// when the URLs moved to a new host (rightly: it must not follow a settings change by
// itself), then typed again. One `settings:update` now carries the new URLs and the key the
// person typed for them: the key goes there because it was entered for it. The rule stays:
// URLs moved without a key still clear the stored one (key-to-a-new-host-needs-the-user).

const OLD_KEY = 'old-host-key'
const NEW_KEY = 'own9' // shorter than the 8 characters once demanded
const URL_FIELDS = ['walletRestBaseUrl', 'v0RestBaseUrl', 'jsonRpcUrl'] as const
const urlsOf = (url: string) => Object.fromEntries(URL_FIELDS.map((f) => [f, url]))

async function call(core: Core, channel: string, input?: unknown): Promise<unknown> {
  const envelope = await core.dispatch(channel, input)
  if (!envelope.ok) throw new Error(`${channel}: ${envelope.error.message}`)
  return envelope.result
}

describe('the key is entered once, with the URLs it is for', () => {
  let first: RunningSimulator
  let own: RunningSimulator
  let temp: ReturnType<typeof makeTempDir>
  let core: Core

  beforeAll(async () => {
    first = await startSimulator({ seed: 3, clock: { mode: 'manual' }, keys: [OLD_KEY] })
    own = await startSimulator({ seed: 4, clock: { mode: 'manual' }, keys: [NEW_KEY] })
  })
  afterAll(async () => {
    await first.close()
    await own.close()
  })
  beforeEach(async () => {
    temp = makeTempDir()
    core = await createCore({ dataDir: temp.dir, shell: 'web', version: 'test' })
  })
  afterEach(async () => {
    await core.close()
    temp.remove()
  })

  it('on a fresh folder: URLs and key in one step choose own data and sync from there', async () => {
    expect(await call(core, 'settings:get')).toMatchObject({ dataSource: 'demo' })
    const answer = await call(core, 'settings:update', { ...urlsOf(own.url), apiKey: NEW_KEY })
    expect(answer).toMatchObject({
      ...urlsOf(own.url),
      dataSource: 'service',
      apiKeyHint: '…own9',
      keyNotice: null,
    })
    const address = own.chain.walletByProfile('idle').address
    await call(core, 'watchlist:add', { address })
    expect(await call(core, 'sync:run', { address })).toMatchObject({ state: 'ok' })
  })

  it('with a key for another host: the new URLs and the key typed for them keep the key', async () => {
    await call(core, 'settings:update', urlsOf(first.url))
    await call(core, 'settings:set-api-key', { apiKey: OLD_KEY })
    const answer = await call(core, 'settings:update', { ...urlsOf(own.url), apiKey: NEW_KEY })
    expect(answer).toMatchObject({ apiKeyHint: '…own9', keyNotice: null, dataSource: 'service' })
    expect(new FileSecretStore(temp.dir).read()).toBe(NEW_KEY)
    const address = own.chain.walletByProfile('idle').address
    await call(core, 'watchlist:add', { address })
    expect(await call(core, 'sync:run', { address })).toMatchObject({ state: 'ok' })
  })

  it('a key refused with the URLs moves nothing: the old key stays with the old host', async () => {
    await call(core, 'settings:update', urlsOf(first.url))
    await call(core, 'settings:set-api-key', { apiKey: OLD_KEY })
    const refused = await core.dispatch('settings:update', {
      ...urlsOf(own.url),
      apiKey: 'own 9',
    })
    expect(refused).toMatchObject({
      ok: false,
      error: { message: 'The API key contains a space or line break; paste only the key.' },
    })
    expect(await call(core, 'settings:get')).toMatchObject({
      ...urlsOf(first.url),
      apiKeyHint: '…-key',
    })
  })

  it('only an admin may send a key with the settings, as with settings:set-api-key', async () => {
    const refused = await core.dispatch('settings:update', { apiKey: NEW_KEY }, { role: 'editor' })
    expect(refused).toMatchObject({ ok: false, error: { name: 'PermissionError' } })
    expect(new FileSecretStore(temp.dir).read()).toBeNull()
  })
})
