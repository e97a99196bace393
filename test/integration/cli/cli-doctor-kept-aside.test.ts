import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HistoryEntry } from '@shared/api/wallet-rest'
import type { KeptAsideReport } from '@shared/ipc/health-schemas'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { runCli as cli } from '../../helpers/cli-in-process'
import { readWalletTruth } from '../../helpers/sim-truth'
import { makeTempDir } from '../../helpers/temp-dir'

// Issue 46, "Done means": with a drift fault (wrongType) on one history entry, `sync --once`
// stores the wallet's other entries and moves on; `status` leads with the kept-aside line;
// `doctor --json` lists the entry with its reason. Then a version that can read it (here:
// the kept item made readable, as a newer schema would read it) writes it at the next sync,
// and the condition resolves.

describe('one history entry the app cannot read: kept aside, said, and read again later', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let address: string
  let odd: HistoryEntry
  let txCount: number
  const base = (): string[] => ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']

  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, clock: { mode: 'manual' } })
    address = sim.chain.walletByProfile('casual').address
    const truth = await readWalletTruth(sim.url, address)
    txCount = truth.txCount
    // The first page is newest first: its 6th entry gets a slot that is not a number.
    const { signature, slot, fee, feePayer, balanceChanges, timestamp, error } = truth.history[
      txCount - 1 - 5
    ] as HistoryEntry
    odd = { signature, slot, fee, feePayer, balanceChanges, timestamp, error }
    expect((await cli([...base(), 'watch', 'add', address, '--label', 'Treasury'])).code).toBe(0)
    const fault = await fetch(`${sim.url}/__sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        target: 'wallet.history',
        kind: 'drift',
        drift: 'wrongType',
        field: 'data.5.slot',
        count: 1,
      }),
    })
    expect(fault.status).toBe(200)
  })
  afterAll(async () => {
    await sim.close()
    temp.remove()
  })

  it('sync --once stores the other entries and moves on', async () => {
    const run = await cli([...base(), 'sync', '--once'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^Treasury: ok \(history ok \+\d+/m)
    const status = await cli([...base(), 'status', '--json'])
    const [wallet] = JSON.parse(status.stdout) as {
      streams: { stream: string; state: string; itemsStored: number; isBackfillComplete: boolean }[]
    }[]
    expect(wallet?.streams.find((s) => s.stream === 'history')).toMatchObject({
      state: 'ok',
      itemsStored: txCount - 1,
      isBackfillComplete: true,
    })
  })

  it('status leads with the kept-aside line; health --json names the condition', async () => {
    const status = await cli([...base(), 'status'])
    expect(status.code, status.stderr).toBe(0)
    expect(status.stdout.split('\n')[0]).toBe(
      '1 history entry of Treasury could not be read; kept aside (heliograph doctor shows them). The rest of each page was written and syncing goes on; each sync reads them again, so a Heliograph that can read them writes them.',
    )
    const health = JSON.parse((await cli([...base(), 'health', '--json'])).stdout) as {
      health: { kind: string; detail: string }[]
    }
    expect(health.health).toEqual([
      {
        kind: 'service-shape',
        since: expect.any(String),
        detail:
          '1 history entry of Treasury could not be read; kept aside (heliograph doctor shows them)',
      },
    ])
    // Raised once, as a health alert to every channel (the app's own and outbound).
    const alerts = JSON.parse((await cli([...base(), 'alerts', 'history', '--json'])).stdout) as {
      kind: string
      healthKind: string | null
      text: string
    }[]
    expect(alerts.filter((a) => a.healthKind === 'service-shape')).toMatchObject([
      { kind: 'health', text: expect.stringMatching(/^1 history entry of Treasury could not/) },
    ])
  })

  it('doctor --json lists the entry with its reason and raw JSON', async () => {
    const run = await cli([...base(), 'doctor', '--json'])
    expect(run.code, run.stderr).toBe(0)
    const report = JSON.parse(run.stdout) as KeptAsideReport
    expect(report.keptAside).toEqual([
      {
        wallet: address,
        label: 'Treasury',
        stream: 'history',
        operation: 'wallet.history',
        key: odd.signature,
        reason: expect.stringMatching(/^slot: .*expected number, received string/),
        firstSeen: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        lastSeen: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        seenCount: 1,
        written: null,
        raw: { ...odd, slot: 'not-a-number' },
      },
    ])
    expect(report.line).toMatch(/^1 history entry of Treasury could not be read/)
    const text = await cli([...base(), 'doctor'])
    expect(text.stdout).toContain(
      `Treasury  history  wallet.history  ${odd.signature}  (kept aside)`,
    )
    expect(text.stdout).toMatch(/ {2}why: slot: /)
  })

  it('a version that reads the kept item writes it at the next sync, and the condition resolves', async () => {
    // What a newer schema would make of the same raw item: here, the item read as the truth.
    const db = new Database(join(temp.dir, 'heliograph.sqlite'))
    try {
      db.prepare('update kept_aside set raw_json = ?').run(JSON.stringify(odd))
    } finally {
      db.close()
    }
    const run = await cli([...base(), 'sync', '--once'])
    expect(run.code, run.stderr).toBe(0)
    const status = await cli([...base(), 'status', '--json'])
    const [wallet] = JSON.parse(status.stdout) as {
      streams: { stream: string; itemsStored: number }[]
    }[]
    expect(wallet?.streams.find((s) => s.stream === 'history')?.itemsStored).toBe(txCount)
    const doctor = JSON.parse(
      (await cli([...base(), 'doctor', '--json'])).stdout,
    ) as KeptAsideReport
    expect(doctor).toEqual({ keptAside: [], line: null })
    const all = JSON.parse(
      (await cli([...base(), 'doctor', '--json', '--all'])).stdout,
    ) as KeptAsideReport
    expect(all.keptAside).toMatchObject([{ key: odd.signature, written: expect.any(String) }])
    expect((await cli([...base(), 'doctor'])).stdout).toBe(
      'Nothing is kept aside: every item the service sent was read.\n',
    )
    expect((await cli([...base(), 'status'])).stdout.split('\n')[0]).not.toMatch(/kept aside/)
    const alerts = JSON.parse((await cli([...base(), 'alerts', 'history', '--json'])).stdout) as {
      healthKind: string | null
      text: string
    }[]
    expect(alerts.map((a) => a.healthKind)).toContain('service-shape-resolved')
  })
})
