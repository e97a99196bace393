import { spawn } from 'node:child_process'
import { join, resolve } from 'node:path'
import { openDatabase } from '../../src-main/db/sqlite/database'
import { writeSettings } from '../../src-main/app/app-settings'
import { openSqliteMirror } from '../../src-main/db/sqlite/mirror'
import { startSimulator } from '../../src-main/simulator/simulator-server'
import type { ProfileId } from '../../src-main/simulator/chain/wallet-profiles'
import { decimalText } from '@shared/domain/exact-amount'
import { readMirror, transferKey } from '../helpers/mirror-contents'
import { readWalletTruth } from '../helpers/sim-truth'
import { makeTempDir } from '../helpers/temp-dir'

const BIN = resolve(import.meta.dirname, '../../scripts/heliograph.mjs')

export interface KillLoopOptions {
  kills: number
  profiles?: ProfileId[]
  seed?: number
  /** Extra latency per service call, so kills land while pages are in flight. */
  latencyMs?: number
  log?: (line: string) => void
}

export interface KillLoopReport {
  kills: number
  runsFinishedBeforeKill: number
  /** Per wallet: what is missing or doubled compared with the simulator's truth. */
  mismatches: string[]
  integrity: string
  servedPages: number
  committedPages: number
  /** Pages the service answered whose rows were never committed (the kill came first). */
  pagesFetchedTwice: number
}

/**
 * The crash-safety harness: runs `heliograph sync --once` in a child process against a
 * simulator, SIGKILLs it at random moments, then lets one run finish and compares the
 * mirror with the simulator's truth.
 *
 * @example
 * const report = await runKillLoop({ kills: 20 })
 * report.mismatches // []
 */
export async function runKillLoop(options: KillLoopOptions): Promise<KillLoopReport> {
  const log = options.log ?? (() => {})
  const profiles = options.profiles ?? ['active-trader', 'casual', 'compressed-holder']
  const temp = makeTempDir('heliograph-kill-')
  const sim = await startSimulator({ seed: options.seed ?? 11, clock: { mode: 'manual' } })
  try {
    await fetch(`${sim.url}/__sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ target: '*', kind: 'latency', latencyMs: options.latencyMs ?? 30 }),
    })
    const dbPath = join(temp.dir, 'heliograph.sqlite')
    const setup = await openSqliteMirror(dbPath)
    const addresses = profiles.map((p) => sim.chain.walletByProfile(p).address)
    for (const [i, address] of addresses.entries())
      await setup.watchlist.add({ address, label: profiles[i] }, 1_700_000_000)
    // Unpaced: the simulator has no rate limit here, and the latency fault sets the pace.
    await writeSettings(setup.settings, { plan: 'off' }, 1_700_000_000)
    await setup.close()

    const args = [
      BIN,
      '--data-dir',
      temp.dir,
      '--service',
      sim.url,
      '--api-key',
      'demo',
      'sync',
      '--once',
      '--quiet',
    ]
    let finished = 0
    let killed = 0
    // Until `kills` runs were really killed mid-way (a run that finishes first proves nothing).
    for (let k = 0; killed < options.kills && k < options.kills * 4; k++) {
      // New activity before every run, so every run has pages to fetch: incremental
      // history (`after`), transfers walking down to the first known item (gap cursor).
      for (const address of addresses) {
        await fetch(`${sim.url}/__sim/activity`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ wallet: address, count: 100 + Math.floor(Math.random() * 400) }),
        })
      }
      const child = spawn(process.execPath, args, { stdio: 'ignore' })
      const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)))
      // Random moments: from process start-up to deep into a backfill.
      const delayMs = 600 + Math.floor(Math.random() * 1_900)
      const outcome = await Promise.race([
        exited.then(() => 'exited' as const),
        sleep(delayMs).then(() => 'kill' as const),
      ])
      if (outcome === 'kill') {
        child.kill('SIGKILL')
        await exited
        killed += 1
      } else {
        finished += 1
      }
      log(
        `run ${k + 1} (kills ${killed}/${options.kills}): ${outcome === 'kill' ? `killed after ${delayMs} ms` : 'finished before the kill'}`,
      )
    }
    await fetch(`${sim.url}/__sim/faults`, { method: 'DELETE' })
    const final = spawn(process.execPath, args, { stdio: 'inherit' })
    const code = await new Promise<number | null>((done) => final.on('exit', (c) => done(c)))
    if (code !== 0) throw new Error(`the final sync exited with ${code}`)

    const database = await openDatabase(dbPath)
    const mismatches: string[] = []
    for (const address of addresses) {
      const truth = await readWalletTruth(sim.url, address)
      const mirror = await readMirror(database.db, address)
      const signatures = mirror.transactions.map((t) => t.signature)
      if (new Set(signatures).size !== signatures.length)
        mismatches.push(`${address}: duplicated transactions`)
      const truthSigs = new Set(truth.history.map((e) => e.signature))
      const missing = [...truthSigs].filter((s) => !signatures.includes(s))
      if (missing.length > 0 || signatures.length !== truthSigs.size) {
        mismatches.push(
          `${address}: ${signatures.length} transactions stored, ${truthSigs.size} in truth, ${missing.length} missing`,
        )
      }
      const truthChanges = truth.history.flatMap((e) =>
        e.balanceChanges.map((c, i) => `${e.signature}|${i}|${c.mint}|${decimalText(c.amount)}`),
      )
      const mirrorChanges = mirror.changes.map(
        (c) => `${c.signature}|${c.ordinal}|${c.mint}|${c.amount_text}`,
      )
      if (mirrorChanges.length !== truthChanges.length || !sameSet(mirrorChanges, truthChanges)) {
        mismatches.push(
          `${address}: balance changes differ (${mirrorChanges.length} stored, ${truthChanges.length} in truth)`,
        )
      }
      if (
        mirror.transfers.length !== truth.transfers.length ||
        !sameSet(mirror.transfers.map(transferKey), truth.transfers.map(transferKey))
      ) {
        mismatches.push(
          `${address}: transfers differ (${mirror.transfers.length} stored, ${truth.transfers.length} in truth)`,
        )
      }
      const compressed = (kind: string) =>
        mirror.compressed.filter((c) => c.kind === kind).map((c) => c.signature)
      if (
        !sameSet(compressed('owner'), truth.compressedOwner) ||
        compressed('owner').length !== truth.compressedOwner.length
      ) {
        mismatches.push(`${address}: owner compression signatures differ`)
      }
      if (
        !sameSet(compressed('token-owner'), truth.compressedTokenOwner) ||
        compressed('token-owner').length !== truth.compressedTokenOwner.length
      ) {
        mismatches.push(`${address}: token-owner compression signatures differ`)
      }
    }
    const integrity = String(database.sqlite.pragma('integrity_check', { simple: true }))
    const committedPages = (
      database.sqlite
        .prepare('select coalesce(sum(pages_fetched), 0) as n from sync_streams')
        .get() as { n: number }
    ).n
    await database.close()
    const credits = (await (await fetch(`${sim.url}/__sim/credits?key=demo`)).json()) as {
      byOperation: Record<string, { calls: number }>
    }
    const paged = [
      'wallet.history',
      'wallet.transfers',
      'wallet.balances',
      'compression.getCompressionSignaturesForOwner',
      'compression.getCompressionSignaturesForTokenOwner',
    ]
    const servedPages = paged.reduce((sum, op) => sum + (credits.byOperation[op]?.calls ?? 0), 0)
    return {
      kills: killed,
      runsFinishedBeforeKill: finished,
      mismatches,
      integrity,
      servedPages,
      committedPages,
      pagesFetchedTwice: Math.max(0, servedPages - committedPages),
    }
  } finally {
    await sim.close()
    temp.remove()
  }
}

function sameSet(a: string[], b: string[]): boolean {
  const set = new Set(a)
  return set.size === new Set(b).size && b.every((x) => set.has(x))
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms))
}
