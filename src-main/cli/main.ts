// `heliograph` / `npm run cli -- <command>`: the same core as the app, for headless use
// and scripting. Errors go to stderr with a non-zero exit code.
import { runCli } from './program'
import { endQuietlyOnClosedOutput } from './terminal-output'

endQuietlyOnClosedOutput()
process.exitCode = await runCli(process.argv.slice(2))
