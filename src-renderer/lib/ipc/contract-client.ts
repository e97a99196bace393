import { BRIDGE_GLOBAL, type HeliographBridge } from '@shared/ipc/bridge'
import type {
  Channel,
  ChannelInput,
  ChannelOutput,
  EventName,
  EventPayload,
} from '@shared/ipc/contract'
import { rebuildError } from '@shared/ipc/ipc-errors'
import { createWebSocketBridge, type SocketState } from './websocket-bridge'

/** The renderer's typed view of the contract: results, or thrown AppError subclasses. */
export interface ContractClient {
  call<C extends Channel>(
    channel: C,
    ...input: ChannelInput<C> extends void ? [] : [ChannelInput<C>]
  ): Promise<ChannelOutput<C>>
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void
  /** Which shell hosts the page. */
  transport: 'electron' | 'websocket'
}

/** Wraps a bridge so calls resolve to results and failures throw rebuilt errors. */
export function createContractClient(
  bridge: HeliographBridge,
  transport: ContractClient['transport'],
): ContractClient {
  return {
    transport,
    async call(channel, ...input) {
      const envelope = await bridge.invoke(channel, input[0] as never)
      if (envelope.ok) return envelope.result as never
      throw rebuildError(envelope.error)
    },
    on: (event, listener) => bridge.on(event, listener),
  }
}

/**
 * Picks the transport at start: the Electron preload's bridge when present, otherwise the
 * web shell's WebSocket.
 */
export function connectContractClient(
  onSocketState?: (state: SocketState) => void,
): ContractClient {
  const electronBridge = (globalThis as Record<string, unknown>)[BRIDGE_GLOBAL] as
    HeliographBridge | undefined
  if (electronBridge) return createContractClient(electronBridge, 'electron')
  return createContractClient(createWebSocketBridge(onSocketState), 'websocket')
}
