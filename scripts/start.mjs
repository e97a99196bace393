// `npm start`: the desktop app when the Electron binary is installed; otherwise one line
// saying so, then the web shell on 127.0.0.1 with its URL printed.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { APP_NODE_FLAGS, appNodeEnv } from './app-node-flags.mjs'

const root = join(dirname(new URL(import.meta.url).pathname), '..')
const args = process.argv.slice(2)

// Looks for the installed binary the way electron's own index.js does, without its
// fallback of downloading one (which cannot work where the install could not).
function electronBinary() {
  try {
    const dir = dirname(createRequire(import.meta.url).resolve('electron/package.json'))
    const relative = readFileSync(join(dir, 'path.txt'), 'utf8').trim()
    const binary = join(dir, 'dist', relative)
    return existsSync(binary) ? binary : null
  } catch {
    return null
  }
}

function run(command, commandArgs, env = process.env) {
  const child = spawn(command, commandArgs, { stdio: 'inherit', cwd: root, env })
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
  child.on('exit', (code) => process.exit(code ?? 0))
}

const electron = electronBinary()
if (electron !== null) {
  run(electron, ['.', ...args])
} else {
  console.log(
    'Electron binary not installed here; starting the web shell instead (open the URL below).',
  )
  // The CLI as built just now: a bundle starts in a fraction of the time the sources take
  // through tsx, which resolves and transpiles every module on each start.
  run(
    process.execPath,
    [...APP_NODE_FLAGS, join(root, 'out/main/cli.js'), ...args, 'serve'],
    appNodeEnv(),
  )
}
