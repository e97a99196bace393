/**
 * Errors that cross the IPC boundary. Main serialises any thrown error into an
 * {@link ErrorPayload}; the renderer rebuilds it as the matching subclass so views can
 * branch on `instanceof` instead of parsing messages.
 */

/** What an error looks like on the wire. `details` is plain JSON, never a secret. */
export interface ErrorPayload {
  name: string
  message: string
  details?: unknown
}

/** Base class of every error the app reports to a person. */
export class AppError extends Error {
  override name = 'AppError'
  constructor(
    message: string,
    readonly details?: unknown,
  ) {
    super(message)
  }
}

/** The input of a channel did not match its schema; `details.issues` lists each problem. */
export class InvalidInputError extends AppError {
  override name = 'InvalidInputError'
}

/** The thing asked for does not exist (a wallet that is not watched, say). */
export class NotFoundError extends AppError {
  override name = 'NotFoundError'
}

/** The request would duplicate something that must be unique (an address already watched). */
export class DuplicateError extends AppError {
  override name = 'DuplicateError'
}

/** The local database refused the work: locked by another process, full, or read-only. */
export class StorageError extends AppError {
  override name = 'StorageError'
}

/** The signed-in account's role does not allow the request (team server). */
export class PermissionError extends AppError {
  override name = 'PermissionError'
}

/** Syncing is stopped (`details.kind`, a health condition) and asking again cannot help yet. */
export class SyncStoppedError extends AppError {
  override name = 'SyncStoppedError'
}

/** The transport itself failed: the main process is gone or the socket closed. */
class TransportError extends AppError {
  override name = 'TransportError'
}

const KNOWN: Record<string, new (message: string, details?: unknown) => AppError> = {
  AppError,
  InvalidInputError,
  NotFoundError,
  DuplicateError,
  StorageError,
  PermissionError,
  SyncStoppedError,
  TransportError,
}

/** Registers another error class so {@link rebuildError} can restore it by name. */
export function registerErrorClass(
  name: string,
  ctor: new (message: string, details?: unknown) => AppError,
): void {
  KNOWN[name] = ctor
}

/** Rebuilds a wire error as an instance of its class (or AppError for unknown names). */
export function rebuildError(payload: ErrorPayload): AppError {
  const Ctor = KNOWN[payload.name] ?? AppError
  const error = new Ctor(payload.message, payload.details)
  error.name = payload.name
  return error
}
