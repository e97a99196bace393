import type { EventName, EventPayload } from '@shared/ipc/contract'
import type { ShellMessage } from '@shared/ipc/web-socket-protocol'

/** A listener that receives every push event, whatever its name. */
export type EventListener = <E extends EventName>(event: E, payload: EventPayload<E>) => void

/** A listener that receives every push event as the contract socket's frame (JSON text). */
export type FrameListener = (frame: string) => void

/** Fans push events out to the shells (one listener per connected window or socket). */
export class EventBus {
  readonly #listeners = new Set<EventListener>()
  readonly #frameListeners = new Set<FrameListener>()

  /** Subscribes; returns the function that unsubscribes. */
  subscribe(listener: EventListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /**
   * Subscribes to each event as the contract socket's frame, made once per event for every
   * such listener: a hundred sockets following a sync share one serialisation of each
   * progress event.
   */
  subscribeFrames(listener: FrameListener): () => void {
    this.#frameListeners.add(listener)
    return () => this.#frameListeners.delete(listener)
  }

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    for (const listener of this.#listeners) listener(event, payload)
    if (this.#frameListeners.size === 0) return
    const frame = JSON.stringify({ type: 'event', event, payload } satisfies ShellMessage)
    for (const listener of this.#frameListeners) listener(frame)
  }
}
