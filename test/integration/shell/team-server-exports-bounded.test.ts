import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src-main/app/core'
import { DOWNLOADS_FOLDER } from '../../../src-main/export/export-downloads'
import type { PendingExportLimits } from '../../../src-main/export/pending-export-limits'
import type { Envelope } from '@shared/ipc/envelope'
import { exportDownloadPath, type ExportResult } from '@shared/ipc/export-schemas'
import { rawRequest } from '../../helpers/raw-http'
import {
  startTestTeamServer,
  type TeamFixture,
  type TeamSocket,
} from '../../helpers/team-server-fixture'
import { VirtualClock } from '../../helpers/virtual-clock'
import { syncedMirror, type SyncedMirror } from '../export/export-fixture'

// Issue 50, item 2: a viewer could fill the server's disk with exports never downloaded
// (seventy in 8 s: 506 MB, each kept 15 minutes). Now an account has at most 3 exports
// running or waiting for their download and a cap on their bytes; a further one is refused
// saying why and when a place frees; a download or an expiry frees one; and no export
// starts, or goes on, when the disk's free space would fall under a floor.

const MINUTE = 60_000

describe('team server: exports waiting for download are bounded per account', () => {
  let synced: SyncedMirror
  let clock: VirtualClock
  let core: Core
  let fx: TeamFixture
  let vera: TeamSocket
  let veraCookie: string
  let ed: TeamSocket
  let next = 0

  /** Opens the core on the synced folder with `limits`, served to a viewer and an editor. */
  async function serve(limits: Partial<PendingExportLimits> = {}): Promise<void> {
    clock = new VirtualClock()
    core = await createCore({
      dataDir: synced.dir,
      shell: 'web',
      version: 'test',
      dataSource: 'service',
      pendingExports: { limits, clock },
    })
    fx = await startTestTeamServer({
      existing: { core, dataDir: synced.dir },
      ...(next === 0
        ? {
            users: [
              { name: 'vera', role: 'viewer' as const },
              { name: 'ed', role: 'editor' as const },
            ],
          }
        : {}),
    })
    const signedIn = await fx.signIn('vera', passwords.vera)
    veraCookie = signedIn.cookie
    const socket = await fx.connect({ cookie: veraCookie })
    const edSocket = await fx.connect({ cookie: (await fx.signIn('ed', passwords.ed)).cookie })
    if (typeof socket === 'number' || typeof edSocket === 'number') throw new Error('refused')
    vera = socket
    ed = edSocket
  }
  const passwords: Record<string, string> = {}
  async function stop(): Promise<void> {
    vera?.close()
    ed?.close()
    await fx?.stop()
    await core?.close()
  }

  const exportAs = (socket: TeamSocket): Promise<Envelope<unknown>> =>
    socket.call('export:run', {
      exportId: `export-${String(next++).padStart(4, '0')}`,
      kind: 'balance-changes',
    })
  const pendingFiles = (): string[] => {
    try {
      return readdirSync(join(synced.dir, DOWNLOADS_FOLDER))
    } catch {
      return []
    }
  }

  beforeAll(async () => {
    synced = await syncedMirror(['active-trader'])
    await serve()
    passwords.vera = fx.password('vera')
    passwords.ed = fx.password('ed')
  }, 120_000)
  afterAll(async () => {
    await stop()
    await synced?.stop()
  })

  /** Vera's exports waiting for their download, by id. */
  const veraWaiting: string[] = []
  const idOf = (answer: Envelope<unknown>): string =>
    (answer as Envelope<ExportResult> & { ok: true }).result.downloadId as string

  it('a viewer asking for 10 exports at once gets 3; the 7 others are refused, saying why and when a place frees', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => exportAs(vera)))
    const accepted = answers.filter((a) => a.ok)
    const refused = answers.flatMap((a) => (a.ok ? [] : [a.error]))
    expect(accepted).toHaveLength(3)
    expect(refused).toHaveLength(7)
    for (const error of refused) {
      expect(error.name).toBe('ExportLimitError')
      expect(error.message).toMatch(
        /^You have 3 exports waiting for their download( \(\d still being written\))?, the most an account may have on the server\. Downloading one frees its place;/,
      )
    }
    veraWaiting.push(...accepted.map(idOf))
    expect(pendingFiles()).toHaveLength(3)
    // Once all three are written, a refusal names the hour the oldest expires.
    const later = await exportAs(vera)
    expect(later.ok).toBe(false)
    if (!later.ok)
      expect(later.error.message).toMatch(
        /otherwise the oldest expires at \d\d:\d\d UTC \(in 15 minutes\)\.$/,
      )
    // Another account's allowance is its own.
    expect((await exportAs(ed)).ok).toBe(true)
  }, 120_000)

  it('her download frees one place: one more export is accepted, the next refused', async () => {
    const got = await rawRequest(fx.port, exportDownloadPath(veraWaiting.shift() as string), {
      headers: { cookie: veraCookie },
    })
    expect(got.status).toBe(200)
    expect(got.body.split('\n').length).toBeGreaterThan(100)
    const more = await exportAs(vera)
    expect(more.ok).toBe(true)
    veraWaiting.push(idOf(more))
    expect((await exportAs(vera)).ok).toBe(false)
    expect(pendingFiles()).toHaveLength(4) // Vera's 3 and Ed's 1
  }, 120_000)

  it('an expiry frees the rest: their files are removed, and 3 more are accepted', async () => {
    await clock.advance(15 * MINUTE)
    await expect.poll(() => pendingFiles()).toEqual([])
    const after = await Promise.all(Array.from({ length: 4 }, () => exportAs(vera)))
    expect(after.filter((a) => a.ok)).toHaveLength(3)
    // The expired ones cannot be downloaded any more.
    const gone = await rawRequest(fx.port, exportDownloadPath(veraWaiting[0] as string), {
      headers: { cookie: veraCookie },
    })
    expect(gone.status).toBe(404)
  }, 120_000)

  it('an export that would pass the account’s bytes is stopped, its file removed', async () => {
    await stop()
    await serve({ bytesPerAccount: 64 * 1024 })
    const before = pendingFiles().length
    const answer = await exportAs(vera)
    expect(answer.ok).toBe(false)
    if (answer.ok) return
    expect(answer.error.name).toBe('ExportLimitError')
    expect(answer.error.message).toMatch(
      /^This export would take your exports waiting for download past the 64 KB an account may keep on the server, so it was stopped and its file removed\./,
    )
    expect(pendingFiles()).toHaveLength(before)
    // The place is free again: an export small enough fits.
    const small = await vera.call('export:run', {
      exportId: `export-${String(next++).padStart(4, '0')}`,
      kind: 'balance-changes',
      filters: { to: '2000-01-01' },
    })
    expect(small.ok, JSON.stringify(small)).toBe(true)
  }, 120_000)

  it('no export starts while the disk’s free space is under the floor', async () => {
    await stop()
    await serve({ freeDiskFloorBytes: Number.MAX_SAFE_INTEGER })
    for (const socket of [vera, ed]) {
      const answer = await exportAs(socket)
      expect(answer.ok).toBe(false)
      if (answer.ok) continue
      expect(answer.error.message).toMatch(
        /^The server's disk has [\d.]+ [GM]B free, under the [\d.]+ GB kept free for the mirror, so the export was not started\./,
      )
    }
  }, 120_000)
})
