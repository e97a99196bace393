import { resolve } from 'node:path'
import { createCore, type Core } from '../../src-main/app/core'
import { databasePath } from '../../src-main/app/data-dir'
import { openSqliteMirror, type SqliteMirror } from '../../src-main/db/sqlite/mirror'
import { startWebShell, type RunningWebShell } from '../../src-main/shell/web/web-shell'
import type { RateSetting } from '../../src-main/sync/sync-runtime'
import { makeTempDir } from './temp-dir'

/** The built renderer that `npm test` produces before running the suites. */
export const BUILT_RENDERER_DIR = resolve(import.meta.dirname, '../../out/renderer')

/**
 * How the test fixtures pace demo data unless a file asks for the app's own pace: as on a
 * Professional plan, a sixth of the app's Developer-plan waiting (a demo sync 5 s, not 28 s).
 */
export const TEST_DEMO_RATE: RateSetting = 'professional'

/** How a test core is opened: with a service and key, on its own filled mirror, or on demo data. */
export interface TestCoreOptions {
  apiKey?: string
  /** One base URL for the service (a simulator on loopback). */
  serviceUrl?: string
  ownMirror?: (mirror: SqliteMirror) => void | Promise<void>
  /** The data source to open (default: the own mirror when one is given, else demo). */
  dataSource?: 'demo' | 'service'
  /** The person's mirror on this PostgreSQL database instead of the folder's SQLite file. */
  databaseUrl?: string
  /** Watch the wallets as the app does (the scheduler syncs them; alerts are delivered). */
  isWatching?: boolean
}

/**
 * A core on a fresh data folder. With `ownMirror`, the person's own mirror is filled first
 * and the core opens it (offline: no key is needed to review what is stored); otherwise
 * it starts on demo data.
 */
export async function openTestCore(
  options: TestCoreOptions = {},
): Promise<{ core: Core; dataDir: string; removeDir: () => void }> {
  const temp = makeTempDir()
  if (options.ownMirror) {
    const own = await openSqliteMirror(databasePath(temp.dir))
    await options.ownMirror(own)
    await own.close()
  }
  const core = await createCore({
    dataDir: temp.dir,
    shell: 'web',
    version: 'test',
    apiKey: options.apiKey,
    serviceUrl: options.serviceUrl,
    ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
    ...(options.isWatching ? { isWatching: true } : {}),
    demo: { rate: TEST_DEMO_RATE },
    ...(options.dataSource
      ? { dataSource: options.dataSource }
      : options.ownMirror
        ? { dataSource: 'service' as const }
        : {}),
  })
  return { core, dataDir: temp.dir, removeDir: temp.remove }
}

/** A test core ({@link openTestCore}) served by the web shell on a free loopback port. */
export async function startTestWebShell(options: TestCoreOptions = {}): Promise<{
  core: Core
  shell: RunningWebShell
  dataDir: string
  stop: () => Promise<void>
}> {
  const { core, dataDir, removeDir } = await openTestCore(options)
  const shell = await startWebShell({ core, rendererDir: BUILT_RENDERER_DIR })
  return {
    core,
    shell,
    dataDir,
    stop: async () => {
      await shell.close()
      await core.close()
      removeDir()
    },
  }
}
