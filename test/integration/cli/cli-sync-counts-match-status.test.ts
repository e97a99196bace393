import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WalletSyncStatus } from '@shared/ipc/sync-schemas'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { makeTempDir } from '../../helpers/temp-dir'
import { runCli as cli } from '../../helpers/cli-in-process'

// Given wallets on the simulator with NFTs past the balances answer's first page and with
// compressed activity, when `sync --once` runs twice and then `status --json`, then the
// "new" each stream reported over the syncs adds up to the items status counts: one
// definition of a stream's items (beside newItemsOf in sync-schemas), the balances' being the current
// snapshot's holdings, not every snapshot's rows added up.

/** `sync` prints `label: ok (history ok +120, balances ok +75, …)` per wallet. */
function newItemsByStream(stdout: string, label: string): Map<string, number> {
  const line = stdout.split('\n').find((l) => l.startsWith(`${label}: `))
  if (line === undefined) throw new Error(`No line for ${label} in:\n${stdout}`)
  const streams = /\((.*)\)/.exec(line)?.[1] ?? ''
  return new Map(
    streams.split(', ').map((part) => {
      const [stream, , added] = part.split(' ')
      return [stream as string, added === undefined ? 0 : Number(added.slice(1))]
    }),
  )
}

describe('sync’s new items add up to the items status counts', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  const base = (): string[] => ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']
  const labels = ['nft-collector', 'compressed-holder'] as const
  let syncs: string[]
  let statuses: WalletSyncStatus[]

  beforeAll(async () => {
    sim = await startSimulator({ seed: 11, clock: { mode: 'manual' } })
    for (const label of labels) {
      const address = sim.chain.walletByProfile(label).address
      expect((await cli([...base(), 'watch', 'add', address, '--label', label])).code).toBe(0)
    }
    syncs = []
    for (let i = 0; i < 2; i++) {
      const run = await cli([...base(), 'sync', '--once'])
      expect(run.code, run.stderr).toBe(0)
      syncs.push(run.stdout)
    }
    const status = await cli([...base(), 'status', '--json'])
    expect(status.code, status.stderr).toBe(0)
    statuses = JSON.parse(status.stdout) as WalletSyncStatus[]
  })
  afterAll(async () => {
    await sim.close()
    temp.remove()
  })

  it.each(labels)('%s: each stream’s new items over both syncs are its items', (label) => {
    const status = statuses.find((s) => s.label === label)
    expect(status).toBeDefined()
    const added = syncs.map((stdout) => newItemsByStream(stdout, label))
    for (const stream of status!.streams) {
      const sum = added.reduce((n, byStream) => n + (byStream.get(stream.stream) ?? 0), 0)
      expect(sum, stream.stream).toBe(stream.itemsStored)
    }
    expect(status!.streams.find((s) => s.stream === 'balances')?.itemsStored).toBeGreaterThan(0)
  })
})
