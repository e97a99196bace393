import type { StreamPatch, StreamRow } from '../../db/mirror-writer'
import { lookedUpTopMark } from './looked-up-top'
import type { StreamContext } from './stream-context'

/** A backfill page handed to the writer, and what it holds. */
export interface SentPage {
  /** Items the page held (new or not): what the depth limit counts until it is stored. */
  items: number
  /** The key of the page's newest item: the stream's newest when it has none yet. */
  newestKey: string | undefined
  /** The cursor after this page (null at the end). */
  cursor: string | null
  /** Whether the page completes the backfill (the end, or the depth limit). */
  isComplete: boolean
  /** Whether no page is sent after it in this run: every write is then awaited. */
  isLast: boolean
}

interface Unstored {
  page: SentPage
  stored: Promise<number>
}

/**
 * The backfill's page writes in flight, oldest first. A writer that stores pages in the
 * order they were sent (`MirrorWriter.pagesInFlight` above one) takes several before
 * the first is stored, and commits those that queued up together, while the stream fetches
 * on. Each page is written with the cursor it follows on from
 * (`StreamPatch.continuesBackfillFrom`), so a page sent behind one that failed is refused
 * and the stream's cursor never skips a page.
 *
 * @example
 * const writes = new BackfillWrites(ctx, row, (inserted) => report(inserted))
 * try {
 *   const page = { items: data.length, newestKey, cursor, isComplete, isLast: next === null }
 *   await writes.send(page, (patch) => writer.applyHistoryPage(walletId, data, patch))
 * } finally {
 *   await writes.settle()
 * }
 */
export class BackfillWrites {
  readonly #ctx: StreamContext
  readonly #inFlight: number
  readonly #onStored: (inserted: number, page: SentPage) => void
  readonly #unstored: Unstored[] = []
  #cursor: string | null
  #isNewestKnown: boolean
  #isTopPage: boolean
  #stored: number
  #itemsUnstored = 0

  /**
   * @param row the stream's row as the backfill starts: its first page follows on from
   * the row's cursor, and its items stored are counted on from there
   * @param onStored told of each page once stored, in the order they were sent
   */
  constructor(
    ctx: StreamContext,
    row: Pick<StreamRow, 'backfillCursor' | 'newestKey' | 'itemsStored'>,
    onStored: (inserted: number, page: SentPage) => void,
  ) {
    this.#ctx = ctx
    this.#inFlight = Math.max(1, ctx.writer.pagesInFlight)
    this.#cursor = row.backfillCursor
    this.#isNewestKnown = row.newestKey !== null
    this.#isTopPage = row.backfillCursor === null
    this.#stored = row.itemsStored
    this.#onStored = onStored
  }

  /** The stream's items stored, those of the pages stored so far included. */
  get stored(): number {
    return this.#stored
  }

  /** Stored, plus the items of pages sent and not yet stored: what the depth limit counts. */
  get storedAfterPending(): number {
    return this.#stored + this.#itemsUnstored
  }

  /**
   * Sends one page's write with its patch: the page follows on from the last page sent and
   * moves the cursor on. Then waits until fewer pages than the writer takes are unstored
   * (all of them, after the last page). Rejects with the first write that failed.
   */
  async send(page: SentPage, write: (patch: StreamPatch) => Promise<number>): Promise<void> {
    const stored = write({
      ...(!this.#isNewestKnown && page.newestKey !== undefined
        ? { newestKey: page.newestKey }
        : {}),
      ...(this.#isTopPage ? lookedUpTopMark(this.#ctx) : {}),
      continuesBackfillFrom: this.#cursor,
      backfillCursor: page.cursor,
      isBackfillComplete: page.isComplete,
      addPages: 1,
      succeededAtSec: this.#ctx.nowSec(),
    })
    this.#isNewestKnown ||= page.newestKey !== undefined
    this.#isTopPage = false
    // Awaited in order below; one failing behind another must not go unhandled meanwhile.
    stored.catch(() => undefined)
    this.#unstored.push({ page, stored })
    this.#itemsUnstored += page.items
    this.#cursor = page.cursor
    while (this.#unstored.length >= this.#inFlight || (page.isLast && this.#unstored.length > 0)) {
      const oldest = this.#unstored.shift() as Unstored
      this.#itemsUnstored -= oldest.page.items
      const inserted = await oldest.stored
      this.#stored += inserted
      this.#onStored(inserted, oldest.page)
    }
  }

  /** Waits for every write sent (stored or failed): nothing is written after the stream returns. */
  async settle(): Promise<void> {
    await Promise.allSettled(this.#unstored.map((sent) => sent.stored))
  }
}
