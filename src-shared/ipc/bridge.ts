import type { Channel, ChannelInput, ChannelOutput, EventName, EventPayload } from './contract'
import type { Envelope } from './envelope'

/**
 * The transport a shell gives the renderer. The Electron preload implements it over
 * `ipcRenderer`; the web shell's client implements it over a WebSocket. Replies come as
 * envelopes so errors survive the crossing.
 */
export interface HeliographBridge {
  invoke<C extends Channel>(channel: C, input: ChannelInput<C>): Promise<Envelope<ChannelOutput<C>>>
  /** Subscribes to a push event; returns the function that unsubscribes. */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void
}

/** Name under which the Electron preload exposes the bridge on `window`. */
export const BRIDGE_GLOBAL = 'heliograph'

/** Name of the Electron IPC channel that carries push events. */
export const EVENT_CHANNEL = 'heliograph:event'
