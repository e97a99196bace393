#!/usr/bin/env node
// The `heliograph` command: runs the CLI as built (out/main/cli.js, beside the app's main,
// preload and renderer), on the project's own Node (the "node" dev dependency) when the
// one on PATH is too old for it. A checkout whose sources changed since the last build is
// built first, so the command never runs stale code.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { isNodeSupported, nodeTooOldMessage } from './check-node.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const bundledNode = join(root, 'node_modules', 'node', 'bin', 'node')
const builtCli = join(root, 'out', 'main', 'cli.js')

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

/** The newest modification time under `folder` (0 when it does not exist). */
function newestMtimeMs(folder) {
  if (!existsSync(folder)) return 0
  let newest = 0
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs)
  }
  return newest
}

function isBuildCurrent() {
  if (!existsSync(builtCli)) return false
  const builtMs = statSync(builtCli).mtimeMs
  // The renderer counts too: `heliograph serve` and the e2e tests serve its build.
  return ['src-main', 'src-shared', 'src-renderer'].every(
    (folder) => newestMtimeMs(join(root, folder)) <= builtMs,
  )
}

if (!isBuildCurrent()) {
  const electronVite = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js')
  if (!existsSync(electronVite)) {
    console.error('heliograph: the command is not built; run `npm install` in the project first.')
    process.exit(1)
  }
  console.error('heliograph: building the command from its sources first…')
  const build = spawnSync(process.execPath, [electronVite, 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  if (build.status !== 0) process.exit(build.status ?? 1)
}
await import(pathToFileURL(builtCli).href)
