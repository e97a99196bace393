import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { KeyRead, SecretStore } from '../../app/secret-store'
import type { KeyStorage } from '@shared/ipc/settings-schemas'

/** The part of Electron's safeStorage this store uses (kept narrow so it is easy to read and test). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean
  encryptString(plain: string): Buffer
  decryptString(encrypted: Buffer): string
  getSelectedStorageBackend?(): string
}

/**
 * Keeps the API key encrypted with the OS keyring through Electron's safeStorage, in
 * `<dataDir>/api-key.enc` (0600). On Linux without a keyring Electron falls back to a
 * hard-coded password ("basic_text"): the store still works but reports `basic-text`
 * so Settings can warn that the key is only obscured. A keyring that is missing, or that
 * cannot decrypt the file (reset, another machine), leaves the key unreadable, never the
 * app unable to start: the person enters the key again and it is written anew.
 */
export class SafeStorageSecretStore implements SecretStore {
  readonly #path: string
  readonly #safe: SafeStorageLike

  /** @param fileName another secret's file in the folder (default: the API key's). */
  constructor(dataDir: string, safe: SafeStorageLike, fileName = 'api-key.enc') {
    this.#path = join(dataDir, fileName)
    this.#safe = safe
  }

  get kind(): KeyStorage {
    if (!this.#safe.isEncryptionAvailable()) return 'unavailable'
    return this.#safe.getSelectedStorageBackend?.() === 'basic_text' ? 'basic-text' : 'safe-storage'
  }

  #read(): KeyRead {
    if (!existsSync(this.#path)) return { key: null, isUnreadable: false }
    if (!this.#safe.isEncryptionAvailable()) return { key: null, isUnreadable: true }
    try {
      const key = this.#safe.decryptString(readFileSync(this.#path))
      return key === '' ? { key: null, isUnreadable: true } : { key }
    } catch {
      return { key: null, isUnreadable: true }
    }
  }

  read(): string | null {
    return this.#read().key
  }

  isKeyUnreadable(): boolean {
    const read = this.#read()
    return read.key === null && read.isUnreadable
  }

  write(secret: string): void {
    if (!this.#safe.isEncryptionAvailable()) {
      throw new Error('The system offers no way to encrypt the API key here, so it was not stored.')
    }
    const temp = `${this.#path}.tmp`
    writeFileSync(temp, this.#safe.encryptString(secret), { mode: 0o600 })
    renameSync(temp, this.#path)
  }

  clear(): void {
    rmSync(this.#path, { force: true })
  }
}
