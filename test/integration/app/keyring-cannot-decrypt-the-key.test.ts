import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src-main/app/core'
import {
  SafeStorageSecretStore,
  type SafeStorageLike,
} from '../../../src-main/shell/electron/safe-storage-secret-store'
import { keyringStandIn as keyring } from '../../helpers/keyring-stand-in'
import { makeTempDir } from '../../helpers/temp-dir'

// Given a key stored through the OS keyring, when the keyring later cannot decrypt it (it
// was reset, the profile moved to another machine) or is not there at all, then the app
// still starts, says the key could not be read — in Settings and in the app facts the
// banner shows — and takes a new key to replace it.

const KEY = 'test-key-5150'

async function call(core: Core, channel: string, input?: unknown): Promise<unknown> {
  const envelope = await core.dispatch(channel, input)
  if (!envelope.ok) throw new Error(`${channel}: ${envelope.error.message}`)
  return envelope.result
}

describe('A keyring that cannot decrypt the key stops the app from starting, with no way to reset the key; an unavailable keyring silently falls back to demo mode', () => {
  let temp: ReturnType<typeof makeTempDir>
  let core: Core | undefined

  beforeEach(() => {
    temp = makeTempDir()
    new SafeStorageSecretStore(temp.dir, keyring('first')).write(KEY)
  })
  afterEach(async () => {
    await core?.close()
    core = undefined
    temp.remove()
  })

  const start = async (safe: SafeStorageLike): Promise<Core> => {
    core = await createCore({
      dataDir: temp.dir,
      shell: 'electron',
      version: 'test',
      secretStore: new SafeStorageSecretStore(temp.dir, safe),
    })
    return core
  }

  it('a keyring that cannot decrypt the key: the app starts, says so, and a new key replaces it', async () => {
    const changed = keyring('second')
    const app = await start(changed)
    expect(await call(app, 'settings:get')).toMatchObject({
      apiKeyHint: null,
      keyStorage: 'safe-storage',
      keyNotice: 'unreadable',
    })
    expect(await call(app, 'app:info')).toMatchObject({ keyNotice: 'unreadable' })

    expect(await call(app, 'settings:set-api-key', { apiKey: KEY })).toMatchObject({
      dataSource: 'service',
      apiKeyHint: '…5150',
      keyNotice: null,
    })
    expect(await call(app, 'app:info')).toMatchObject({ dataSource: 'service', keyNotice: null })
    expect(new SafeStorageSecretStore(temp.dir, changed).read()).toBe(KEY)
  })

  it('an unavailable keyring is reported, not passed off as demo mode without a key', async () => {
    const app = await start(keyring('first', { available: false }))
    expect(await call(app, 'settings:get')).toMatchObject({
      dataSource: 'demo',
      apiKeyHint: null,
      keyStorage: 'unavailable',
      keyNotice: 'unreadable',
    })
    expect(await call(app, 'app:info')).toMatchObject({ keyNotice: 'unreadable' })
    const refused = await app.dispatch('settings:set-api-key', { apiKey: KEY })
    expect(refused).toMatchObject({ ok: false, error: { message: /no way to encrypt/ } })
  })

  it('an unavailable keyring with no key stored: reported in Settings, nothing to re-enter', async () => {
    new SafeStorageSecretStore(temp.dir, keyring('first')).clear()
    const app = await start(keyring('first', { available: false }))
    expect(await call(app, 'settings:get')).toMatchObject({
      keyStorage: 'unavailable',
      keyNotice: null,
    })
  })

  it('the key the keyring can read is used as before', async () => {
    const app = await start(keyring('first'))
    expect(await call(app, 'settings:get')).toMatchObject({
      dataSource: 'service',
      apiKeyHint: '…5150',
      keyStorage: 'safe-storage',
      keyNotice: null,
    })
  })
})
