import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SecretStore } from '../../app/secret-store'
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
 * so Settings can warn that the key is only obscured.
 */
export class SafeStorageSecretStore implements SecretStore {
  readonly #path: string
  readonly #safe: SafeStorageLike

  constructor(dataDir: string, safe: SafeStorageLike) {
    this.#path = join(dataDir, 'api-key.enc')
    this.#safe = safe
  }

  get kind(): KeyStorage {
    return this.#safe.getSelectedStorageBackend?.() === 'basic_text' ? 'basic-text' : 'safe-storage'
  }

  read(): string | null {
    if (!existsSync(this.#path) || !this.#safe.isEncryptionAvailable()) return null
    return this.#safe.decryptString(readFileSync(this.#path))
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
