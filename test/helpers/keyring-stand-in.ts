import type { SafeStorageLike } from '../../src-main/shell/electron/safe-storage-secret-store'

/**
 * Stands in for the OS keyring behind Electron's safeStorage (Electron cannot run here).
 * Each keyring decrypts only what it encrypted and throws otherwise, as safeStorage does
 * when the keyring was reset or the data folder came from another machine.
 */
export function keyringStandIn(id: string, options: { available?: boolean } = {}): SafeStorageLike {
  const available = options.available ?? true
  return {
    isEncryptionAvailable: () => available,
    encryptString: (plain) => Buffer.from(`${id}:${Buffer.from(plain).toString('base64')}`),
    decryptString: (encrypted) => {
      const [owner, body] = encrypted.toString().split(':')
      if (!available || owner !== id || body === undefined)
        throw new Error(
          'Error while decrypting the ciphertext provided to safeStorage.decryptString.',
        )
      return Buffer.from(body, 'base64').toString()
    },
    getSelectedStorageBackend: () => 'gnome_libsecret',
  }
}
