import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'

// The process and e2e tiers run what `npm run build` makes (the CLI, the renderer). The
// `heliograph` command builds first when the sources are newer than the build, so asking
// it for its version once, before any test, makes sure no test runs a stale build and no
// two tests build at once.

/** Builds the app when the sources changed since the last build. */
export default function setup(): void {
  const command = resolve(import.meta.dirname, '../../scripts/heliograph.mjs')
  const run = spawnSync(process.execPath, [command, '--version'], { encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`the app could not be built:\n${run.stderr}`)
}
