import { HistoryEntry, TransferEntry } from '@shared/api/wallet-rest'
import type { MirrorWriter, StreamName } from '../db/mirror-writer'
import type { KeptAsideStore } from '../db/stores/kept-aside-store'

/** The streams whose kept-aside items are read again: a holdings snapshot is taken whole instead. */
const REREAD_STREAMS = ['history', 'transfers'] as const satisfies readonly StreamName[]

/**
 * Reads a wallet's kept-aside history entries and transfers again with this version's
 * schemas and writes those it can read now, each stream's in one transaction that also
 * marks them written: an item an older version kept aside is in the mirror once a version
 * that reads it syncs the wallet, without asking the service again. Resolves to how many
 * were written.
 *
 * @example
 * await writeReadableKeptAside(writer, mirror.keptAside, walletId, ['history'], nowSec) // 3
 */
export async function writeReadableKeptAside(
  writer: MirrorWriter,
  store: KeptAsideStore,
  walletId: number,
  streams: readonly StreamName[],
  nowSec: number,
): Promise<number> {
  const asked = REREAD_STREAMS.filter((s) => streams.includes(s))
  const rows = await store.unwritten(walletId, asked)
  const readable = <T>(stream: string, read: (raw: unknown) => T | null) => {
    const out: { id: number; item: T }[] = []
    for (const row of rows.filter((r) => r.stream === stream)) {
      const item = read(parseJson(row.rawJson))
      if (item !== null) out.push({ id: row.id, item })
    }
    return out
  }
  const entries = readable('history', (raw) => HistoryEntry.safeParse(raw).data ?? null)
  const transfers = readable('transfers', (raw) => TransferEntry.safeParse(raw).data ?? null)
  const written = (items: readonly { id: number }[]) => ({
    keptAsideWritten: { ids: items.map((i) => i.id), atSec: nowSec },
  })
  if (entries.length > 0)
    await writer.applyHistoryPage(
      walletId,
      entries.map((e) => e.item),
      written(entries),
    )
  if (transfers.length > 0)
    await writer.applyTransfersPage(
      walletId,
      transfers.map((t) => t.item),
      written(transfers),
    )
  return entries.length + transfers.length
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
