import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { openSqliteMirror } from '../../../src-main/db/sqlite/mirror'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'

const OUT = resolve(import.meta.dirname, '../../../out')
/** The worker threads' entries, each started by name from the main bundle (db/start-worker.ts). */
const WORKER_ENTRIES = ['mirror-writer-worker', 'export-part-worker']

/**
 * The app's main bundle: index.js and the chunks beside it that it shares with the CLI
 * (code resolving files from import.meta.url must sit at the same depth as index.js).
 */
function mainBundleText(): string {
  const dir = resolve(OUT, 'main')
  const files = readdirSync(dir).filter(
    (f) => f.endsWith('.js') && f !== 'cli.js' && !WORKER_ENTRIES.includes(f.replace(/\.js$/, '')),
  )
  return files.map((f) => readFileSync(resolve(dir, f), 'utf8')).join('\n')
}

// `npm test` runs `electron-vite build` before the suites; this checks what it emitted.
describe('electron-vite build output', () => {
  it('emits main, preload and renderer', () => {
    for (const file of [
      'main/index.js',
      'main/cli.js',
      'preload/index.cjs',
      'renderer/index.html',
    ]) {
      expect(existsSync(resolve(OUT, file)), file).toBe(true)
    }
  })

  it('emits the preload as CommonJS requiring only electron, so the sandbox can load it', () => {
    const preload = readFileSync(resolve(OUT, 'preload/index.cjs'), 'utf8')
    expect(preload).toMatch(/require\(["']electron["']\)/)
    expect(preload).not.toMatch(/^\s*import\s/m)
    expect(preload).not.toMatch(/^\s*export\s/m)
    const required = [...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1])
    expect(new Set(required)).toEqual(new Set(['electron']))
  })

  it('keeps better-sqlite3 external to the main bundle', () => {
    const main = mainBundleText()
    expect(main).toMatch(/from ["']better-sqlite3["']|require\(["']better-sqlite3["']\)/)
    expect(main).not.toMatch(/from ["']electron\/main["']|require\(["']p-queue["']\)/)
  })

  it('emits the worker threads beside the main bundle, and the mirror writer writes from one', async () => {
    const main = mainBundleText()
    for (const name of WORKER_ENTRIES) {
      expect(existsSync(resolve(OUT, `main/${name}.js`)), name).toBe(true)
      // Started by name: the file beside the bundle that starts it.
      expect(main, name).toContain(`"${name}"`)
    }
    const entry = resolve(OUT, 'main/mirror-writer-worker.js')
    const temp = makeTempDir()
    const path = join(temp.dir, 'heliograph.sqlite')
    const setup = await openSqliteMirror(path)
    await setup.watchlist.add({ address: testAddress(1) }, 1_700_000_000)
    await setup.close()
    const worker = new Worker(entry, { workerData: { path } })
    try {
      const ask = (request: object) =>
        new Promise((answer) => {
          worker.once('message', answer)
          worker.postMessage(request)
        })
      expect(await ask({ id: 1, method: 'walletId', args: [testAddress(1)] })).toEqual({
        id: 1,
        value: 1,
      })
      expect(await ask({ id: 2, method: 'stream', args: [1, 'history'] })).toMatchObject({
        id: 2,
        value: { walletId: 1, stream: 'history', state: 'idle' },
      })
      expect(
        await ask({ id: 3, method: 'patchStream', args: [1, 'history', { state: 'ok' }] }),
      ).toEqual({ id: 3, value: undefined })
    } finally {
      await worker.terminate()
    }
    const reader = await openSqliteMirror(path, { isReadOnly: true })
    const row = reader.database.sqlite
      .prepare("select state from sync_streams where wallet_id = 1 and stream = 'history'")
      .get()
    expect(row).toEqual({ state: 'ok' })
    await reader.close()
    temp.remove()
  })
})
