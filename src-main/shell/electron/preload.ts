// Runs in the sandboxed preload (CommonJS): exposes exactly the typed contract, nothing
// of Node or of ipcRenderer itself.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import { BRIDGE_GLOBAL, EVENT_CHANNEL, type HeliographBridge } from '@shared/ipc/bridge'
import { isChannel, isEventName } from '@shared/ipc/contract'
import type { Envelope } from '@shared/ipc/envelope'

const bridge = {
  invoke: (channel, input) => {
    if (!isChannel(channel)) {
      return Promise.resolve({
        ok: false,
        error: { name: 'InvalidInputError', message: `Unknown channel “${String(channel)}”.` },
      })
    }
    return ipcRenderer.invoke(channel, input) as Promise<Envelope<never>>
  },
  on: (event, listener) => {
    if (!isEventName(event)) throw new Error(`Unknown event “${String(event)}”.`)
    const forward = (_e: IpcRendererEvent, name: string, payload: unknown): void => {
      if (name === event) (listener as (p: unknown) => void)(payload)
    }
    ipcRenderer.on(EVENT_CHANNEL, forward)
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, forward)
    }
  },
} satisfies HeliographBridge

contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, bridge)
