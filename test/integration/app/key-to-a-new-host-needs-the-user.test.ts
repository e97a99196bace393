import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src-main/app/core'
import { FileSecretStore } from '../../../src-main/app/secret-store'
import { openCore } from '../../../src-main/cli/cli-core'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { startRecordedServer, type RecordedServer } from '../../helpers/recorded-server'
import { makeTempDir } from '../../helpers/temp-dir'

// Given the person's key stored and their own data synced from the service (the simulator),
// when a settings change points a service URL at another host (here a server that records
// what it receives), then the key is not sent there: it is cleared, the answer says so, and
// the renderer asks for it again. Plain http is refused unless it stays on this computer.

const KEY = 'test-key-5150'
const URL_FIELDS = ['walletRestBaseUrl', 'v0RestBaseUrl', 'jsonRpcUrl'] as const

async function call(core: Core, channel: string, input?: unknown): Promise<unknown> {
  const envelope = await core.dispatch(channel, input)
  if (!envelope.ok) throw new Error(`${channel}: ${envelope.error.message}`)
  return envelope.result
}

describe('Key to a new host needs the user', () => {
  let sim: RunningSimulator
  let elsewhere: RecordedServer
  let temp: ReturnType<typeof makeTempDir>
  let core: Core
  let address: string

  beforeAll(async () => {
    sim = await startSimulator({ seed: 5, clock: { mode: 'manual' }, keys: [KEY] })
    elsewhere = await startRecordedServer(() => ({ status: 500, json: { error: 'no' } }))
    address = sim.chain.walletByProfile('idle').address
  })
  afterAll(async () => {
    await sim.close()
    await elsewhere.close()
  })

  beforeEach(async () => {
    temp = makeTempDir()
    core = await createCore({ dataDir: temp.dir, shell: 'web', version: 'test' })
    await call(core, 'settings:update', Object.fromEntries(URL_FIELDS.map((f) => [f, sim.url])))
    await call(core, 'settings:set-api-key', { apiKey: KEY })
    await call(core, 'watchlist:add', { address })
    elsewhere.requests.length = 0
  })
  afterEach(async () => {
    await core.close()
    temp.remove()
  })

  const keyArrivedElsewhere = (): boolean =>
    elsewhere.requests.some((r) => r.headers['x-api-key'] === KEY || r.query.get('api-key') === KEY)

  it.each(URL_FIELDS)(
    'a new origin for %s clears the key, says so, and the key never reaches it',
    async (field) => {
      expect(await call(core, 'settings:get')).toMatchObject({
        dataSource: 'service',
        apiKeyHint: '…5150',
      })
      const answer = await call(core, 'settings:update', { [field]: elsewhere.url })
      await core.dispatch('sync:run', { address })
      expect(keyArrivedElsewhere()).toBe(false)
      expect(new FileSecretStore(temp.dir).read()).toBeNull()
      expect(answer).toMatchObject({
        [field]: elsewhere.url,
        apiKeyHint: null,
        keyNotice: 'cleared-for-new-origin',
      })
      // Entering the key again is the person's consent; the notice goes away.
      expect(await call(core, 'settings:set-api-key', { apiKey: KEY })).toMatchObject({
        dataSource: 'service',
        apiKeyHint: '…5150',
        keyNotice: null,
      })
    },
  )

  it('a new path on the same origins keeps the key', async () => {
    const answer = await call(core, 'settings:update', { jsonRpcUrl: `${sim.url}/` })
    expect(answer).toMatchObject({ apiKeyHint: '…5150', keyNotice: null })
    expect(await call(core, 'sync:run', { address })).toMatchObject({ state: 'ok' })
  })

  it('moving a URL to an origin the key already goes to keeps the key', async () => {
    await call(core, 'settings:update', { jsonRpcUrl: elsewhere.url })
    await call(core, 'settings:set-api-key', { apiKey: KEY })
    const answer = await call(core, 'settings:update', { walletRestBaseUrl: elsewhere.url })
    expect(answer).toMatchObject({ apiKeyHint: '…5150', keyNotice: null })
  })

  it('plain http to another computer is refused with an error naming the field in words', async () => {
    const words = {
      walletRestBaseUrl: 'Wallet REST base URL',
      v0RestBaseUrl: 'v0 REST base URL',
      jsonRpcUrl: 'JSON RPC URL',
    }
    const lookAlikes = ['http://127.0.0.1.nip.io/', 'http://localhost.example.com/']
    for (const [field, url] of URL_FIELDS.flatMap((f) =>
      ['http://rpc.example.com/', ...lookAlikes].map((u) => [f, u] as const),
    )) {
      const refused = await core.dispatch('settings:update', { [field]: url })
      expect(refused).toMatchObject({
        ok: false,
        error: {
          name: 'InvalidInputError',
          message: expect.stringMatching(`^${words[field]} must use https`),
        },
      })
    }
    expect(await call(core, 'settings:get')).toMatchObject({ apiKeyHint: '…5150' })
  })

  it('the CLI refuses plain http to another computer for --service too', async () => {
    await expect(
      openCore(
        { dataDir: temp.dir, service: 'http://rpc.example.com', apiKey: KEY },
        { command: 'sync', use: 'create' },
      ),
    ).rejects.toThrow(/--service .*must be an https URL/)
  })

  it('plain http stays allowed on this computer: localhost, 127.0.0.0/8 and ::1', async () => {
    for (const url of ['http://localhost:1/', 'http://127.8.9.10:1/', 'http://[::1]:1/']) {
      const answer = await core.dispatch('settings:update', { jsonRpcUrl: url })
      expect(answer, url).toMatchObject({ ok: true })
    }
  })
})
