import { mkdirSync, renameSync } from 'node:fs'
import { resolve } from 'node:path'
import { build } from 'esbuild'

/** Where bundles live: inside the project, so their packages resolve from node_modules. */
const OUT_DIR = resolve(import.meta.dirname, '../../node_modules/.cache/heliograph-test-scripts')
const built = new Map<string, Promise<string>>()

/**
 * A TypeScript script bundled once per test worker into plain JavaScript (packages left
 * as imports), for tests that start it as a child many times: node starts it in a tenth
 * of the time `--import tsx` takes to compile it at every start.
 *
 * @example
 * spawn(process.execPath, [await bundledScript(CHILD), ...args])
 */
export function bundledScript(entry: string): Promise<string> {
  let bundle = built.get(entry)
  if (bundle === undefined) {
    bundle = bundleOnce(entry)
    built.set(entry, bundle)
  }
  return bundle
}

async function bundleOnce(entry: string): Promise<string> {
  mkdirSync(OUT_DIR, { recursive: true })
  const name = entry.replace(/^.*\//, '').replace(/\.ts$/, '')
  const outfile = resolve(OUT_DIR, `${name}.mjs`)
  // Workers bundle side by side: each writes its own file, then moves it into place.
  const mine = `${outfile}.${process.pid}.tmp`
  await build({
    entryPoints: [entry],
    outfile: mine,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    tsconfig: resolve(import.meta.dirname, '../../tsconfig.json'),
    logLevel: 'error',
  })
  renameSync(mine, outfile)
  return outfile
}
