#!/usr/bin/env node
// The `heliograph` command: runs the CLI from its TypeScript source through tsx, on the
// project's own Node 24 (better-sqlite3 13 needs Node 22 or later) when the one on PATH
// is older.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const bundledNode = join(root, 'node_modules', 'node', 'bin', 'node')
const major = Number(process.versions.node.split('.')[0])

if (major < 22 && existsSync(bundledNode)) {
  const result = spawnSync(
    bundledNode,
    [fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    {
      stdio: 'inherit',
    },
  )
  process.exit(result.status ?? 1)
}
const { register } = await import('tsx/esm/api')
register()
await import('../src-main/cli/main.ts')
