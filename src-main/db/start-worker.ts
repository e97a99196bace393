import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker, type ResourceLimits } from 'node:worker_threads'
import type * as Esbuild from 'esbuild'

/**
 * Starts one of the app's worker threads. The built main process has each as its own
 * bundle entry (`<entry>.js`, named in electron.vite.config.ts) beside the bundles that
 * start it; from source (vitest, a script under tsx) `source` is bundled first, once per
 * process (see {@link bundledFromSource}).
 *
 * @example
 * startWorker('export-part-worker', new URL('./export-part-worker.ts', import.meta.url), job)
 */
export function startWorker(
  entry: string,
  source: URL,
  workerData: unknown,
  resourceLimits?: ResourceLimits,
): Worker {
  const options = { workerData, ...(resourceLimits ? { resourceLimits } : {}) }
  const built = new URL(`./${entry}.js`, import.meta.url)
  if (!import.meta.url.endsWith('.ts') && existsSync(built)) return new Worker(built, options)
  // The bundle needs no loader: the parent's (tsx's, for a script) would run for each import.
  return new Worker(bundledFromSource(entry, source), { ...options, execArgv: [] })
}

/** Source runs' worker bundles, by source file: built on a thread's first start. */
const bundles = new Map<string, URL>()

/**
 * The worker's TypeScript source bundled into one JavaScript module, its packages left to
 * Node. A thread that loaded the sources through a TypeScript loader spent over a second of
 * CPU on it at every start; from a bundle a tenth of that. The file is named by its
 * content and kept under node_modules/.cache (where its packages resolve), so processes
 * starting the same worker side by side share it.
 */
function bundledFromSource(entry: string, source: URL): URL {
  const known = bundles.get(source.href)
  if (known !== undefined) return known
  const root = fileURLToPath(new URL('../../', import.meta.url))
  // A development tool, loaded only here: the built app never takes this path.
  const esbuild = createRequire(import.meta.url)('esbuild') as typeof Esbuild
  const [output] = esbuild.buildSync({
    entryPoints: [fileURLToPath(source)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    tsconfig: join(root, 'tsconfig.json'),
    write: false,
    logLevel: 'silent',
  }).outputFiles
  const text = output?.text ?? ''
  const dir = join(root, 'node_modules', '.cache', 'heliograph-workers')
  const digest = createHash('sha256').update(text).digest('hex').slice(0, 16)
  const file = join(dir, `${entry}-${digest}.mjs`)
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true })
    // Written whole, then renamed: a process starting the same bundle never reads half of it.
    const partial = `${file}.${process.pid}.partial`
    writeFileSync(partial, text)
    renameSync(partial, file)
  }
  const url = pathToFileURL(file)
  bundles.set(source.href, url)
  return url
}
