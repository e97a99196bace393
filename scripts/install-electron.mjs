// Installs the Electron binary where the network allows it. On machines that cannot
// reach Electron's download host the install still succeeds: `npm start` then falls
// back to the web shell (see README).
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)

function electronInstallScript() {
  try {
    return join(dirname(require.resolve('electron/package.json')), 'install.js')
  } catch {
    return null
  }
}

const script = electronInstallScript()
if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD === '1' || script === null) {
  process.exit(0)
}
const result = spawnSync(process.execPath, [script], { stdio: 'pipe', timeout: 120_000 })
if (result.status !== 0) {
  console.log(
    'heliograph: Electron binary could not be downloaded; `npm start` will use the web shell instead.',
  )
}
process.exit(0)
