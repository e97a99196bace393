import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { appNodeEnv, APP_NODE_FLAGS } from '../../scripts/app-node-flags.mjs'
import type { HistoryCursor } from '@shared/ipc/review-schemas'
import { socketProtocols } from '@shared/ipc/web-socket-protocol'
import { startLocalPostgres, type LocalPostgres } from '../../scripts/postgres/local-postgres'
import { createCore } from '../../src-main/app/core'
import { writeSettings } from '../../src-main/app/app-settings'
import { databasePath } from '../../src-main/app/data-dir'
import { openMirror } from '../../src-main/db/open-mirror'
import { hashPassword } from '../../src-main/shell/team/password-hashing'
import { BUILT_CLI } from '../helpers/built-cli'
import { profileAddressOf, startSimulatorProcess } from '../helpers/simulator-process'
import { makeTempDir } from '../helpers/temp-dir'
import { BUILT_RENDERER_DIR } from '../helpers/web-shell-fixture'
import type { BenchFigure } from './bench-table'
import {
  openLoadClient,
  runPaced,
  runSaturated,
  timed,
  type LoadClient,
  type LoadFigures,
  type LoadStepOf,
} from './contract-load'

// Issue 50, item 6: a team at a human pace. A hundred people each page History (100 rows)
// once a second and five follow the feed, while the server syncs; each person has a socket
// of their own. The server runs as people run it (the built CLI with the app's Node flags,
// in its own process); the people's sockets are here.

const PEOPLE = 100
const FEED_FOLLOWERS = 5
const PACED_SECONDS = 30
/**
 * The people's first seconds on a server just started, printed apart: its first pages pay
 * for compiling the code and the statements and for reading the database into the cache
 * (measured: p99 about 500 ms in the first 10 s, 16 ms after). The goal is the pace of a
 * server people have been using.
 */
const WARM_UP_SECONDS = 10
const SATURATED_SECONDS = 15
const PAGE_ROWS = 100
const GOAL_P99_MS = 50

/** A server process and how to reach its contract socket. */
interface RunningServer {
  socketUrl: string
  headers: Record<string, string>
  protocols: string[]
  stop(): Promise<void>
}

/** Spawns the built CLI with `args`; resolves once it printed a line matching `ready`. */
function spawnServer(
  args: string[],
  ready: RegExp,
  env: NodeJS.ProcessEnv = {},
): Promise<{ match: RegExpExecArray; child: ChildProcess; stop: () => Promise<void> }> {
  // HELIOGRAPH_BENCH_PROFILE=DIR: a CPU profile of the server, to find where its time goes.
  const profileDir = process.env.HELIOGRAPH_BENCH_PROFILE
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []
  // HELIOGRAPH_BENCH_CLI=PATH: another build of the CLI, to compare before and after a change.
  const cli = process.env.HELIOGRAPH_BENCH_CLI ?? BUILT_CLI
  const child = spawn(process.execPath, [...APP_NODE_FLAGS, ...profile, cli, ...args], {
    env: { ...appNodeEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  const stop = async (): Promise<void> => {
    child.kill('SIGTERM')
    await exited
  }
  return new Promise((resolve, reject) => {
    let out = ''
    let err = ''
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()))
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${err}`)))
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString()
      const match = ready.exec(out)
      if (match) resolve({ match, child, stop })
    })
  })
}

/** `heliograph serve` on a fresh folder: the demo mirror, its first-run wallets syncing. */
async function startWebShellOnDemo(dataDir: string): Promise<RunningServer> {
  const { match, stop } = await spawnServer(
    ['--data-dir', dataDir, 'serve'],
    /Heliograph web shell: (http:\/\/[^/]+)\/\?token=(\S+)/,
  )
  const origin = match[1] as string
  return {
    socketUrl: `${origin.replace(/^http/, 'ws')}/ipc`,
    headers: { origin },
    protocols: socketProtocols(match[2] as string),
    stop,
  }
}

/** Each person walks History of one wallet page by page, from the top again at its end. */
function historyWalker(addresses: readonly string[]): LoadStepOf {
  const cursors = new Map<number, HistoryCursor | null>()
  return (client, index, latencies, fail) => {
    const address = addresses[index % addresses.length] as string
    const cursor = cursors.get(index) ?? null
    return timed(latencies, fail, async () => {
      const reply = await client.call('history:page', { address, limit: PAGE_ROWS, cursor })
      if (reply.ok)
        cursors.set(index, (reply.result as { nextCursor: HistoryCursor | null }).nextCursor)
      return reply
    })
  }
}

/** Prints one run's line: pages, rate, p50, p99, max, refusals and the machine's load. */
function print(what: string, f: LoadFigures & { firstFailure: string | null }): void {
  process.stdout.write(
    `${what}: ${f.requests} pages in ${f.seconds.toFixed(1)} s (${f.perSecond.toFixed(0)}/s), ` +
      `p50 ${f.p50Ms.toFixed(1)} ms, p99 ${f.p99Ms.toFixed(1)} ms, max ${f.maxMs.toFixed(1)} ms, ` +
      `${f.failures} refused${f.firstFailure ? ` (first: ${f.firstFailure})` : ''}; load average ${f.loadAverage.toFixed(2)}\n`,
  )
}

/** The web shell on its demo mirror: a hundred sockets paging History once a second, then back to back. */
async function webShellRun(): Promise<{ paced: LoadFigures; saturated: LoadFigures }> {
  const temp = makeTempDir('heliograph-team-bench-')
  const server = await startWebShellOnDemo(temp.dir)
  const clients: LoadClient[] = []
  try {
    for (let i = 0; i < PEOPLE; i++)
      clients.push(await openLoadClient(server.socketUrl, server.headers, server.protocols))
    const list = await (clients[0] as LoadClient).call('watchlist:list')
    if (!list.ok) throw new Error(list.error.message)
    const walk = historyWalker((list.result as { address: string }[]).map((w) => w.address))
    const warmUp = await runPaced(clients, walk, { everyMs: 1000, seconds: WARM_UP_SECONDS })
    print(`web shell, demo mirror, the first ${WARM_UP_SECONDS} s (warming up)`, warmUp)
    const paced = await runPaced(clients, walk, { everyMs: 1000, seconds: PACED_SECONDS })
    print('web shell, demo mirror, 100 people at a History page a second', paced)
    const saturated = await runSaturated(clients, walk, { seconds: SATURATED_SECONDS })
    print('web shell, demo mirror, 100 people back to back', saturated)
    return { paced, saturated }
  } finally {
    for (const c of clients) c.close()
    await server.stop()
    temp.remove()
  }
}

/** Where a team server's mirror is kept. */
type Engine = 'sqlite' | 'postgres'

/** Wallets the people page: synced before the server starts. */
const PAGED_PROFILES = ['active-trader', 'casual', 'nft-collector', 'failed-transactions']
/** Backfilled by the server while the people page (paced as on a Developer plan). */
const SYNCING_PROFILE = 'whale'
const SYNCING_DEPTH = 50_000
const PASSWORD = 'a long enough password for the bench'

/**
 * A team server on `engine` with a hundred viewers signed in: the paged wallets synced from
 * a live simulator beforehand, a whale backfilling and the others watched while it runs.
 */
async function startTeamServerOn(
  dataDir: string,
  serviceUrl: string,
  databaseUrl: string | undefined,
): Promise<RunningServer & { cookies: string[]; addresses: string[] }> {
  const addresses = await Promise.all(PAGED_PROFILES.map((p) => profileAddressOf(serviceUrl, p)))
  const whale = await profileAddressOf(serviceUrl, SYNCING_PROFILE)
  // The paged wallets synced unpaced, then the pace of a Developer plan for the run.
  const setupCore = await createCore({
    dataDir,
    shell: 'web',
    version: 'bench',
    serviceUrl,
    apiKey: 'demo',
    dataSource: 'service',
    ...(databaseUrl ? { databaseUrl } : {}),
  })
  try {
    const unpaced = await setupCore.dispatch('settings:update', { plan: 'off' })
    if (!unpaced.ok) throw new Error(unpaced.error.message)
    for (const address of addresses) {
      const added = await setupCore.dispatch('watchlist:add', { address })
      if (!added.ok) throw new Error(added.error.message)
      const synced = await setupCore.dispatch('sync:run', { address })
      if (!synced.ok) throw new Error(synced.error.message)
    }
  } finally {
    await setupCore.close()
  }
  const mirror = await openMirror({
    file: databasePath(dataDir),
    ...(databaseUrl ? { databaseUrl } : {}),
  })
  try {
    await writeSettings(mirror.settings, { plan: 'developer' }, Math.floor(Date.now() / 1000))
    await mirror.watchlist.add({ address: whale, label: 'whale' }, Math.floor(Date.now() / 1000))
    await mirror.syncState.setDepthLimit(whale, { maxTransactions: SYNCING_DEPTH, sinceSec: null })
    const hash = await hashPassword(PASSWORD)
    for (let i = 0; i < PEOPLE; i++)
      await mirror.team.addUser(`person${i}`, 'viewer', hash, 0, 'chosen')
  } finally {
    await mirror.close()
  }
  const { match, stop } = await spawnServer(
    ['--data-dir', dataDir, '--service', serviceUrl, 'server'],
    /Heliograph team server: (http:\/\/[^/]+)\//,
    {
      HELIOGRAPH_API_KEY: 'demo',
      ...(databaseUrl ? { HELIOGRAPH_DATABASE_URL: databaseUrl } : {}),
    },
  )
  const origin = match[1] as string
  const cookies: string[] = []
  for (let i = 0; i < PEOPLE; i++) cookies.push(await signIn(origin, `person${i}`))
  return {
    socketUrl: `${origin.replace(/^http/, 'ws')}/ipc`,
    headers: { origin },
    protocols: ['heliograph'],
    stop,
    cookies,
    addresses: [...addresses, whale],
  }
}

/** Signs in through the sign-in form as a browser would; answers the session cookie. */
async function signIn(origin: string, name: string): Promise<string> {
  const form = await fetch(`${origin}/login`)
  const loginCookie = (form.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? ''
  const answer = await fetch(`${origin}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      origin,
      cookie: loginCookie,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ csrf, name, password: PASSWORD }).toString(),
  })
  const session = answer.headers.getSetCookie().find((c) => c.startsWith('heliograph_session='))
  if (answer.status !== 303 || session === undefined)
    throw new Error(`signing in ${name} answered ${answer.status}`)
  return session.split(';')[0] as string
}

/** Paced and saturated figures of one engine's team server. */
interface TeamFigures {
  engine: Engine
  paced: LoadFigures
  feedPaced: LoadFigures
  saturated: LoadFigures
}

const ENGINE_NAMES: Record<Engine, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' }

/** Each of five people asks for the feed's newest page once a second, as `feed --follow` does. */
const followFeed: LoadStepOf = (client, _index, latencies, fail) =>
  timed(latencies, fail, () => client.call('feed:page', { limit: 50 }))

/** Sync progress the people's sockets were told of during a run: the server was syncing. */
const progressEvents = (clients: readonly LoadClient[]): number =>
  clients[0]?.events.get('sync:progress') ?? 0

/** A hundred viewers on a team server over `engine`: paced, then back to back. */
async function teamServerRun(engine: Engine, postgres: LocalPostgres | null): Promise<TeamFigures> {
  const temp = makeTempDir('heliograph-team-bench-')
  const sim = await startSimulatorProcess(['--seed', '42', '--live'])
  const databaseUrl = postgres
    ? await postgres.createDatabase(`team_bench_${Date.now()}`)
    : undefined
  const server = await startTeamServerOn(temp.dir, sim.url, databaseUrl)
  const clients: LoadClient[] = []
  const name = ENGINE_NAMES[engine]
  try {
    for (const cookie of server.cookies)
      clients.push(
        await openLoadClient(server.socketUrl, { ...server.headers, cookie }, server.protocols),
      )
    const walk = historyWalker(server.addresses)
    const warmUp = await runPaced(clients, walk, { everyMs: 1000, seconds: WARM_UP_SECONDS })
    print(`team server on ${name}, the first ${WARM_UP_SECONDS} s (warming up)`, warmUp)
    const progressBefore = progressEvents(clients)
    const [paced, feedPaced] = await Promise.all([
      runPaced(clients, walk, { everyMs: 1000, seconds: PACED_SECONDS }),
      runPaced(clients.slice(0, FEED_FOLLOWERS), followFeed, {
        everyMs: 1000,
        seconds: PACED_SECONDS,
      }),
    ])
    const syncing = progressEvents(clients) - progressBefore
    print(`team server on ${name}, 100 people at a History page a second`, paced)
    print(`team server on ${name}, 5 following the feed meanwhile`, feedPaced)
    process.stdout.write(`  meanwhile the server synced: ${syncing} sync:progress events\n`)
    const saturated = await runSaturated(clients, walk, { seconds: SATURATED_SECONDS })
    print(`team server on ${name}, 100 people back to back`, saturated)
    return { engine, paced, feedPaced, saturated }
  } finally {
    for (const c of clients) c.close()
    await server.stop()
    await sim.close()
    temp.remove()
  }
}

/** A paced p99 against the goal. */
function pacedFigure(figure: string, f: LoadFigures): BenchFigure {
  return {
    figure: `${figure} (load average ${f.loadAverage.toFixed(1)})`,
    goal: `< ${GOAL_P99_MS} ms`,
    measured: `${f.p99Ms.toFixed(1)} ms`,
    met: f.failures === 0 && f.p99Ms < GOAL_P99_MS,
  }
}

/**
 * The web shell on its demo mirror and the team server on SQLite and on PostgreSQL, each
 * with a hundred people paging History once a second (the team server's with five following
 * the feed and a whale backfilling), then back to back for the saturation throughput.
 * `HELIOGRAPH_BENCH_ONLY=web|sqlite|postgres` runs one scenario.
 */
export async function runTeamBench(): Promise<{ figures: BenchFigure[] }> {
  if (!existsSync(join(BUILT_RENDERER_DIR, 'index.html')) || !existsSync(BUILT_CLI))
    throw new Error('The app is not built: run `npm run build` first.')
  const only = process.env.HELIOGRAPH_BENCH_ONLY
  const figures: BenchFigure[] = []
  if (only === undefined || only === 'web') {
    const web = await webShellRun()
    figures.push(
      pacedFigure('web shell (demo), 100 people paging History each second, p99', web.paced),
      {
        figure: 'web shell (demo), 100 people back to back',
        goal: '—',
        measured: `${web.saturated.perSecond.toFixed(0)} pages/s, p99 ${web.saturated.p99Ms.toFixed(0)} ms`,
        met: null,
      },
    )
  }
  for (const engine of ['sqlite', 'postgres'] as const) {
    if (only !== undefined && only !== engine) continue
    const postgres = engine === 'postgres' ? await startLocalPostgres() : null
    try {
      const run = await teamServerRun(engine, postgres)
      const name = ENGINE_NAMES[engine]
      figures.push(
        pacedFigure(
          `team server on ${name}, 100 people paging History each second while syncing, p99`,
          run.paced,
        ),
        pacedFigure(`team server on ${name}, 5 following the feed meanwhile, p99`, run.feedPaced),
        {
          figure: `team server on ${name}, 100 people back to back (saturation)`,
          goal: '—',
          measured: `${run.saturated.perSecond.toFixed(0)} pages/s, p99 ${run.saturated.p99Ms.toFixed(0)} ms`,
          met: null,
        },
      )
    } finally {
      await postgres?.stop()
    }
  }
  return { figures }
}
if (
  process.argv[1] !== undefined &&
  import.meta.url === new URL(`file://${process.argv[1]}`).href
) {
  runTeamBench().catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
    process.exit(1)
  })
}
