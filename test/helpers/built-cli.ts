import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { APP_NODE_FLAGS } from '../../scripts/app-node-flags.mjs'

/** The CLI bundle `npm run build` makes and `npm start` runs the web shell from. */
export const BUILT_CLI = resolve(import.meta.dirname, '../../out/main/cli.js')

/**
 * Node's arguments for the built CLI on a data folder and a service, run as `npm start`
 * runs the app (its Node flags), with the demo key.
 *
 * @example
 * spawn(process.execPath, builtCliArgs(dir, sim.url, ['sync', '--once']))
 */
export function builtCliArgs(dataDir: string, serviceUrl: string, command: string[]): string[] {
  if (!existsSync(BUILT_CLI)) throw new Error('The CLI is not built: run `npm run build` first.')
  return [
    ...APP_NODE_FLAGS,
    BUILT_CLI,
    '--data-dir',
    dataDir,
    '--service',
    serviceUrl,
    '--api-key',
    'demo',
    ...command,
  ]
}
