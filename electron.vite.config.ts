import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import { svelte } from '@sveltejs/vite-plugin-svelte'

const root = import.meta.dirname

// `@shared/…` is src-shared in every bundle (the same alias as tsconfig.json's paths).
const resolveShared = { alias: { '@shared': resolve(root, 'src-shared') } }

export default defineConfig({
  main: {
    resolve: resolveShared,
    build: {
      outDir: 'out/main',
      // Plain-JavaScript dependencies go into the bundle (p-queue must: it is ESM-only):
      // the CLI then starts without resolving and translating each package's modules
      // (`heliograph --version` 0.43 s of CPU to 0.22 s). Native addons (better-sqlite3,
      // @node-rs/argon2) stay external.
      externalizeDeps: { exclude: ['p-queue', 'kysely', 'zod', 'commander', 'ws', 'pg', 'bs58'] },
      rolldownOptions: {
        // The CLI too: `npm start` runs the web shell from this bundle, which starts in a
        // fraction of the time the sources take through tsx.
        input: {
          index: resolve(root, 'src-main/shell/electron/main.ts'),
          cli: resolve(root, 'src-main/cli/main.ts'),
          // The worker threads (the mirror's writer and readers, an export's parts): entries of their
          // own, beside index.js, which db/start-worker.ts starts by name.
          'mirror-writer-worker': resolve(root, 'src-main/db/sqlite/mirror-writer-worker.ts'),
          'mirror-reader-worker': resolve(root, 'src-main/db/sqlite/mirror-reader-worker.ts'),
          'export-part-worker': resolve(root, 'src-main/export/export-part-worker.ts'),
        },
        // Code the entries share goes beside them, not in a subfolder: paths resolved from
        // import.meta.url (the worker's file, the renderer, package.json) stay the same.
        output: { chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    resolve: resolveShared,
    build: {
      outDir: 'out/preload',
      // A sandboxed preload can only require('electron'): bundle everything else, as CommonJS.
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(root, 'src-main/shell/electron/preload.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src-renderer'),
    resolve: resolveShared,
    plugins: [svelte({ configFile: resolve(root, 'svelte.config.js') })],
    build: {
      outDir: resolve(root, 'out/renderer'),
      rolldownOptions: {
        input: { index: resolve(root, 'src-renderer/index.html') },
      },
    },
  },
})
