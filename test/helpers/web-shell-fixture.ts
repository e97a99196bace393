import { resolve } from 'node:path'
import { createCore, type Core } from '../../src-main/app/core'
import { databasePath } from '../../src-main/app/data-dir'
import { openSqliteMirror, type SqliteMirror } from '../../src-main/db/sqlite-mirror'
import { startWebShell, type RunningWebShell } from '../../src-main/shell/web/web-shell'
import { makeTempDir } from './temp-dir'

/** The built renderer that `npm test` produces before running the suites. */
export const BUILT_RENDERER_DIR = resolve(import.meta.dirname, '../../out/renderer')

/**
 * A core on a fresh data folder, served by the web shell on a free loopback port. With
 * `ownMirror`, the person's own mirror is filled first and the core opens it (offline:
 * no key is needed to review what is stored); otherwise it starts on demo data.
 */
export async function startTestWebShell(
  options: {
    apiKey?: string
    /** One base URL for the service (a simulator on loopback). */
    serviceUrl?: string
    ownMirror?: (mirror: SqliteMirror) => void | Promise<void>
    /** The data source to open (default: the own mirror when one is given, else demo). */
    dataSource?: 'demo' | 'service'
  } = {},
): Promise<{
  core: Core
  shell: RunningWebShell
  dataDir: string
  stop: () => Promise<void>
}> {
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
    ...(options.dataSource
      ? { dataSource: options.dataSource }
      : options.ownMirror
        ? { dataSource: 'service' as const }
        : {}),
  })
  const shell = await startWebShell({ core, rendererDir: BUILT_RENDERER_DIR })
  return {
    core,
    shell,
    dataDir: temp.dir,
    stop: async () => {
      await shell.close()
      await core.close()
      temp.remove()
    },
  }
}
