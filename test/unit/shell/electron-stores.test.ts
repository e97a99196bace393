import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FileSecretStore } from '../../../src-main/app/secret-store'
import {
  SafeStorageSecretStore,
  type SafeStorageLike,
} from '../../../src-main/shell/electron/safe-storage-secret-store'
import { readWindowBounds, writeWindowBounds } from '../../../src-main/shell/electron/window-state'
import { makeTempDir } from '../../helpers/temp-dir'

/** A reversible transform standing in for the OS keyring (Electron cannot run here). */
function rot13Storage(backend: string, available = true): SafeStorageLike {
  const rot = (s: string) =>
    s.replace(/[a-z]/gi, (c) =>
      String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (c <= 'Z' ? 65 : 97)),
    )
  return {
    isEncryptionAvailable: () => available,
    encryptString: (plain) => Buffer.from(rot(plain)),
    decryptString: (buf) => rot(buf.toString()),
    getSelectedStorageBackend: () => backend,
  }
}

describe('secret stores and window state', () => {
  let temp: ReturnType<typeof makeTempDir>
  beforeEach(() => {
    temp = makeTempDir()
  })
  afterEach(() => temp.remove())

  it('the file store keeps the key readable by the owner only', () => {
    const store = new FileSecretStore(temp.dir)
    expect(store.read()).toBeNull()
    store.write('SECRETKEY-1234')
    expect(store.read()).toBe('SECRETKEY-1234')
    expect(statSync(join(temp.dir, 'api-key')).mode & 0o777).toBe(0o600)
    store.clear()
    expect(store.read()).toBeNull()
  })

  it('the safeStorage store writes only the encrypted form and reports a basic-text backend', () => {
    const store = new SafeStorageSecretStore(temp.dir, rot13Storage('gnome_libsecret'))
    store.write('abcdefKEY')
    expect(readFileSync(join(temp.dir, 'api-key.enc'), 'utf8')).not.toContain('abcdefKEY')
    expect(store.read()).toBe('abcdefKEY')
    expect(store.kind).toBe('safe-storage')
    expect(new SafeStorageSecretStore(temp.dir, rot13Storage('basic_text')).kind).toBe('basic-text')
    expect(() => new SafeStorageSecretStore(temp.dir, rot13Storage('x', false)).write('k')).toThrow(
      /no way to encrypt/,
    )
  })

  it('remembers the window size and ignores a damaged file', () => {
    expect(readWindowBounds(temp.dir)).toBeUndefined()
    writeWindowBounds(temp.dir, { width: 1400, height: 900 })
    expect(readWindowBounds(temp.dir)).toEqual({ width: 1400, height: 900 })
    writeFileSync(join(temp.dir, 'window-state.json'), '{not json')
    expect(readWindowBounds(temp.dir)).toBeUndefined()
  })
})
