import { describe, expect, it } from 'vitest'
import {
  AppError,
  DuplicateError,
  InvalidInputError,
  NotFoundError,
  rebuildError,
  StorageError,
} from '@shared/ipc/ipc-errors'

describe('errors across IPC', () => {
  it.each([
    ['InvalidInputError', InvalidInputError],
    ['NotFoundError', NotFoundError],
    ['DuplicateError', DuplicateError],
    ['StorageError', StorageError],
  ] as const)('rebuilds %s as its class with message and details', (name, Ctor) => {
    const original = new Ctor('something went wrong', { field: 'address' })
    const wire = JSON.parse(
      JSON.stringify({ name: original.name, message: original.message, details: original.details }),
    )
    const rebuilt = rebuildError(wire)
    expect(rebuilt).toBeInstanceOf(Ctor)
    expect(rebuilt).toBeInstanceOf(AppError)
    expect(rebuilt.name).toBe(name)
    expect(rebuilt.message).toBe('something went wrong')
    expect(rebuilt.details).toEqual({ field: 'address' })
  })

  it('keeps the name of an error class it does not know', () => {
    const rebuilt = rebuildError({ name: 'RateLimitedError', message: 'slow down' })
    expect(rebuilt).toBeInstanceOf(AppError)
    expect(rebuilt.name).toBe('RateLimitedError')
  })
})
