import type { WatchCadence } from '@shared/ipc/settings-schemas'

/**
 * A watch cadence with watching switched off (`settings:update { watch }`): no round syncs
 * a wallet of its own accord, so only the syncs a test asks for run and spend.
 */
export const WATCHING_OFF: WatchCadence = {
  isWatching: false,
  checkEverySec: 60,
  tokenAccountsEverySec: 3_600,
  compressedEverySec: 600,
  backstopEverySec: 86_400,
}
