// `npm run postgres -- [--port N] [--data DIR]`: a local PostgreSQL server for development,
// kept in a folder of the project, serving until Ctrl-C. Prints the URL of its
// `heliograph` database, for `--database` and HELIOGRAPH_DATABASE_URL.
import { resolve } from 'node:path'
import { Command, InvalidArgumentError } from 'commander'
import { startLocalPostgres } from './local-postgres'

/** Beside the usual 5432, so that a system PostgreSQL and this one do not collide. */
const DEFAULT_PORT = 54320
const DEFAULT_DATA_DIR = resolve(import.meta.dirname, '../../.postgres')
const DATABASE = 'heliograph'

function parsePort(text: string): number {
  const port = Number(text)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new InvalidArgumentError(`"${text}" is not a TCP port (0 to 65535; 0: any free port)`)
  return port
}

const options = new Command('npm run postgres --')
  .description('start a local PostgreSQL server for development and print its URL')
  .option('--port <n>', 'TCP port on 127.0.0.1 (0: any free port)', parsePort, DEFAULT_PORT)
  .option('--data <dir>', 'the server folder, kept across runs', DEFAULT_DATA_DIR)
  .parse()
  .opts<{ port: number; data: string }>()

try {
  const server = await startLocalPostgres({ dataDir: options.data, port: options.port })
  const url = await server.createDatabase(DATABASE, { isExistingOk: true })
  console.log(`PostgreSQL ${server.port} in ${server.dataDir}; Ctrl-C stops it`)
  console.log(url)
  const stop = (): void => {
    void server.stop().then(() => {
      console.log('PostgreSQL stopped')
      process.exit(0)
    })
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
} catch (error) {
  console.error(`postgres: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
