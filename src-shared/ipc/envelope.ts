import type { ErrorPayload } from './ipc-errors'

/**
 * The one shape every IPC reply takes, in both shells: a result, or an error that the
 * other side rebuilds with {@link rebuildError}.
 */
export type Envelope<T> = { ok: true; result: T } | { ok: false; error: ErrorPayload }

/** Wraps a result. */
export function okEnvelope<T>(result: T): Envelope<T> {
  return { ok: true, result }
}
