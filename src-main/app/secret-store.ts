import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import type { KeyStorage } from '@shared/ipc/settings-schemas'

/**
 * Where the API key lives. The Electron shell provides one over `safeStorage`; the web
 * shell and the CLI use a file only the user can read.
 */
export interface SecretStore {
  /** How the key is protected, shown in Settings. */
  readonly kind: KeyStorage
  /**
   * The stored key, or null when none is stored or it cannot be read. Never throws: a key
   * that cannot be read must not keep the app from starting (see `isKeyUnreadable`).
   */
  read(): string | null
  /** Whether a key is stored but cannot be read, so the person has to enter it again. */
  isKeyUnreadable(): boolean
  write(secret: string): void
  clear(): void
}

/** What reading a stored key gave: the key, or why there is none. */
export type KeyRead = { key: string } | { key: null; isUnreadable: boolean }

/** File name of the key in the data folder (web shell and CLI). */
const API_KEY_FILE = 'api-key'

/**
 * Keeps the key in `<dataDir>/api-key`, mode 0600, written to a temporary name and
 * renamed so a crash never leaves half a key.
 */
export class FileSecretStore implements SecretStore {
  readonly kind = 'file-0600' as const
  readonly #path: string

  /** @param fileName another secret's file in the folder (default: the API key's). */
  constructor(dataDir: string, fileName: string = API_KEY_FILE) {
    this.#path = join(dataDir, fileName)
  }

  #read(): KeyRead {
    if (!existsSync(this.#path)) return { key: null, isUnreadable: false }
    try {
      const text = readFileSync(this.#path, 'utf8').trim()
      return text === '' ? { key: null, isUnreadable: false } : { key: text }
    } catch {
      // Not ours to read any more (permissions changed, a folder in its place).
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
    const temp = `${this.#path}.tmp`
    writeFileSync(temp, secret, { mode: 0o600 })
    chmodSync(temp, 0o600)
    renameSync(temp, this.#path)
  }

  clear(): void {
    rmSync(this.#path, { force: true })
  }
}

/** A store that holds nothing: for runs given a key on the command line. */
export class MemorySecretStore implements SecretStore {
  readonly kind = 'file-0600' as const
  #secret: string | null
  constructor(secret: string | null = null) {
    this.#secret = secret
  }
  read(): string | null {
    return this.#secret
  }
  isKeyUnreadable(): boolean {
    return false
  }
  write(secret: string): void {
    this.#secret = secret
  }
  clear(): void {
    this.#secret = null
  }
}
