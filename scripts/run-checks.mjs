// `npm test`'s checks before the tests: typecheck, format and lint side by side (each leaves
// a core idle part of the time), then the build, which writes a temporary config file into
// the project that lint or format must not find half-written. Each one's output is shown
// when it fails; the exit code is non-zero if any failed.
import { spawn } from 'node:child_process'

const CHECKS = ['typecheck', 'format:check', 'lint']

function run(script) {
  return new Promise((resolve) => {
    const started = Date.now()
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('close', (code) =>
      resolve({ script, code, output, seconds: (Date.now() - started) / 1000 }),
    )
  })
}

const results = [...(await Promise.all(CHECKS.map(run))), await run('build')]
for (const { script, code, output, seconds } of results) {
  console.log(`${code === 0 ? 'ok  ' : 'FAIL'} ${script} (${seconds.toFixed(1)} s)`)
  if (code !== 0) console.log(output)
}
process.exit(results.every((r) => r.code === 0) ? 0 : 1)
