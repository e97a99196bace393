import type { EventName, EventPayload } from '@shared/ipc/contract'

/** A listener that receives every push event, whatever its name. */
export type EventListener = <E extends EventName>(event: E, payload: EventPayload<E>) => void

/** Fans push events out to the shells (one listener per connected window or socket). */
export class EventBus {
  readonly #listeners = new Set<EventListener>()

  /** Subscribes; returns the function that unsubscribes. */
  subscribe(listener: EventListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    for (const listener of this.#listeners) listener(event, payload)
  }
}
