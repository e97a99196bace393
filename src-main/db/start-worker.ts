import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker, type ResourceLimits } from 'node:worker_threads'

/**
 * Starts one of the app's worker threads. The built main process has each as its own
 * bundle entry (`<entry>.js`, named in electron.vite.config.ts) beside the bundles that
 * start it; from source (the CLI under tsx, vitest) it is `source`, TypeScript loaded
 * through tsx with the project's tsconfig (for the `@shared` alias).
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
  // tsx's ESM API (its CommonJS build cannot start from a worker's eval'd source).
  const tsx = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  )
  const tsconfig = fileURLToPath(new URL('../../tsconfig.json', import.meta.url))
  const bootstrap =
    `import { register } from ${JSON.stringify(tsx.href)};` +
    `register({ tsconfig: ${JSON.stringify(tsconfig)} });` +
    `await import(${JSON.stringify(source.href)});`
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`), options)
}
