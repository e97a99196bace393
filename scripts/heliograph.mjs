#!/usr/bin/env node
// The `heliograph` command: runs the CLI from its TypeScript source through tsx, on the
// project's own Node (the "node" dev dependency) when the one on PATH is too old for it.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isNodeSupported, nodeTooOldMessage } from './check-node.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const bundledNode = join(root, 'node_modules', 'node', 'bin', 'node')

if (!isNodeSupported()) {
  if (existsSync(bundledNode) && process.execPath !== bundledNode) {
    const result = spawnSync(
      bundledNode,
      [fileURLToPath(import.meta.url), ...process.argv.slice(2)],
      { stdio: 'inherit' },
    )
    process.exit(result.status ?? 1)
  }
  console.error(nodeTooOldMessage())
  process.exit(1)
}
const { register } = await import('tsx/esm/api')
register()
await import('../src-main/cli/main.ts')
