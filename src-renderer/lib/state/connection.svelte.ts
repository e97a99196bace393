import type { AppInfo } from '../../../src-shared/ipc/app-schemas'
import { connectContractClient } from '../ipc/contract-client'
import type { SocketState } from '../ipc/websocket-bridge'

/** Whether the page can reach the app's core, and what the core said about itself. */
export const connection = $state<{ socket: SocketState; info: AppInfo | null }>({
  socket: 'connecting',
  info: null,
})

/** The one contract client of the page. */
export const client = connectContractClient((state) => {
  connection.socket = state
})
if (client.transport === 'electron') connection.socket = 'open'

/** Loads the app facts shown in the status bar. */
export async function loadAppInfo(): Promise<void> {
  connection.info = await client.call('app:info')
}
