import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { bundledScript } from '../../helpers/bundled-script'

const CHILD = resolve(import.meta.dirname, 'migrate-until-paused.ts')

/**
 * Runs the migrations on `database` (a SQLite file or a postgres:// URL) in a child
 * process that stops inside `migration` after its first statement, then SIGKILLs it there.
 */
export async function killInsideMigration(database: string, migration: string): Promise<void> {
  const child = spawn(process.execPath, [await bundledScript(CHILD), database, migration, '1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  await new Promise<void>((paused, fail) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('paused')) paused()
    })
    child.on('exit', (code) => fail(new Error(`the child exited (${code}) unpaused: ${stderr}`)))
  })
  const killed = new Promise((exited) => child.on('exit', exited))
  child.kill('SIGKILL')
  await killed
}
