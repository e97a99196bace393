import { resolve } from 'node:path'
import { createCore, type Core } from '../../src-main/app/core'
import { startWebShell, type RunningWebShell } from '../../src-main/shell/web/web-shell'
import { makeTempDir } from './temp-dir'

/** The built renderer that `npm test` produces before running the suites. */
export const BUILT_RENDERER_DIR = resolve(import.meta.dirname, '../../out/renderer')

/** A core on a fresh data folder, served by the web shell on a free loopback port. */
export async function startTestWebShell(options: { apiKey?: string } = {}): Promise<{
  core: Core
  shell: RunningWebShell
  dataDir: string
  stop: () => Promise<void>
}> {
  const temp = makeTempDir()
  const core = await createCore({
    dataDir: temp.dir,
    shell: 'web',
    version: 'test',
    apiKey: options.apiKey,
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
