import type { HeliographBridge } from '@shared/ipc/bridge'
import type { EventName } from '@shared/ipc/contract'
import type { Envelope } from '@shared/ipc/envelope'
import {
  IPC_SOCKET_PATH,
  SOCKET_PROTOCOL,
  socketProtocols,
  type InvokeMessage,
  type ShellMessage,
} from '@shared/ipc/web-socket-protocol'
import { launchToken } from './launch-token'

/** Connection state of the web shell's socket, for the status bar. */
export type SocketState = 'connecting' | 'open' | 'closed'

interface Pending {
  resolve: (envelope: Envelope<unknown>) => void
  message: string
}

/**
 * The web shell's (and team server's) transport: the contract over one WebSocket to the
 * page's own origin.
 * Requests made while connecting wait; a dropped socket reconnects with growing delays
 * and requests in flight fail with a TransportError envelope (the user can retry).
 */
export function createWebSocketBridge(
  onState: (state: SocketState) => void = () => {},
): HeliographBridge {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${IPC_SOCKET_PATH}`
  // The web shell's page carries its launch token; the team server's is signed in by cookie.
  const token = launchToken()
  const protocols = token === null ? [SOCKET_PROTOCOL] : socketProtocols(token)
  const pending = new Map<number, Pending>()
  const listeners = new Map<string, Set<(payload: unknown) => void>>()
  const queue: string[] = []
  let socket: WebSocket
  let nextId = 1
  let retryMs = 250

  function connect(): void {
    onState('connecting')
    socket = new WebSocket(url, protocols)
    socket.addEventListener('open', () => {
      retryMs = 250
      onState('open')
      for (const message of queue.splice(0)) socket.send(message)
    })
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as ShellMessage
      if (message.type === 'reply') {
        pending.get(message.id)?.resolve(message.envelope)
        pending.delete(message.id)
      } else {
        for (const listener of listeners.get(message.event) ?? []) listener(message.payload)
      }
    })
    socket.addEventListener('close', () => {
      onState('closed')
      for (const [id, request] of pending) {
        request.resolve({
          ok: false,
          error: {
            name: 'TransportError',
            message: 'Lost the connection to Heliograph; try again.',
          },
        })
        pending.delete(id)
      }
      setTimeout(connect, retryMs)
      retryMs = Math.min(retryMs * 2, 5_000)
    })
  }
  connect()

  return {
    invoke(channel, input) {
      const id = nextId++
      const message = JSON.stringify({ type: 'invoke', id, channel, input } satisfies InvokeMessage)
      return new Promise((resolve) => {
        pending.set(id, { resolve: resolve as Pending['resolve'], message })
        if (socket.readyState === WebSocket.OPEN) socket.send(message)
        else queue.push(message)
      })
    },
    on(event: EventName, listener) {
      const set = listeners.get(event) ?? new Set()
      set.add(listener as (payload: unknown) => void)
      listeners.set(event, set)
      return () => set.delete(listener as (payload: unknown) => void)
    },
  }
}
