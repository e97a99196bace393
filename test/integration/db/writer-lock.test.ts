import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import {
  acquireWriterLock,
  DataFolderInUseError,
  type WriterLock,
} from '../../../src-main/db/writer-lock'
import { makeTempDir } from '../../helpers/temp-dir'

// The writer lock on a real file: one holder at a time, a refused taker is told who holds
// it, and a released lock can be taken again. (Across processes and after SIGKILL:
// test/integration/cli/cli-one-writer-per-data-folder.process.test.ts and the kill loop.)

describe('the writer lock of a data folder', () => {
  const temp = makeTempDir()
  const lockPath = join(temp.dir, 'nested', 'heliograph.lock')
  const held: WriterLock[] = []
  afterEach(() => {
    for (const lock of held.splice(0)) lock.release()
  })
  afterAll(() => temp.remove())

  it('refuses a second holder, naming the first and the folder', () => {
    held.push(acquireWriterLock(lockPath, '`heliograph sync`'))
    let refused: unknown
    try {
      held.push(acquireWriterLock(lockPath, '`heliograph serve`'))
    } catch (error) {
      refused = error
    }
    expect(refused).toBeInstanceOf(DataFolderInUseError)
    const error = refused as DataFolderInUseError
    expect(error.holder).toMatchObject({ pid: process.pid, name: '`heliograph sync`' })
    expect(error.message).toContain(
      `The data folder ${join(temp.dir, 'nested')} is in use by \`heliograph sync\` (pid ${process.pid})`,
    )
    expect(error.name).toBe('DataFolderInUseError')
  })

  it('is free again once released, and names the new holder then', () => {
    const first = acquireWriterLock(lockPath, 'the Heliograph app')
    first.release()
    first.release()
    held.push(acquireWriterLock(lockPath, 'the Heliograph web shell'))
    expect(() => acquireWriterLock(lockPath, 'another')).toThrow(
      /in use by the Heliograph web shell/,
    )
  })
})
