import type { Kysely } from 'kysely'
import { FeedCursor } from '@shared/ipc/feed-schemas'
import {
  fetchFeedPage,
  newestFeedKey,
  type FeedQuery,
  type FeedQueryPage,
} from '../queries/feed-queries'
import type { Database } from '../schema'
import { SettingsStore } from './settings-store'

/** The settings key of the feed's last-viewed mark; each mirror keeps its own. */
const LAST_VIEWED_KEY = 'feed.lastViewed'

/**
 * The feed: every watched wallet's transactions newest first, and where the person last
 * looked at it (rows above that mark are unread). Reads only, but the mark.
 */
export class FeedStore {
  readonly #db: Kysely<Database>
  /** Where pages are read: the mirror's reader threads where it has them. */
  readonly #reads: Kysely<Database>
  readonly #settings: SettingsStore
  constructor(db: Kysely<Database>, reads: Kysely<Database> = db) {
    this.#db = db
    this.#reads = reads
    this.#settings = new SettingsStore(db)
  }

  /** A page of the feed (see fetchFeedPage), with rows above the last-viewed mark unread. */
  async page(query: Omit<FeedQuery, 'lastViewed'>): Promise<FeedQueryPage> {
    return fetchFeedPage(this.#reads, { ...query, lastViewed: await this.lastViewed() })
  }

  /** The newest row the person saw, or null before the feed was first viewed. */
  async lastViewed(): Promise<FeedCursor | null> {
    const parsed = FeedCursor.safeParse(await this.#settings.read(LAST_VIEWED_KEY))
    return parsed.success ? parsed.data : null
  }

  /**
   * Marks the feed viewed up to `upTo` (the newest row shown; the newest row stored when
   * absent). The mark only moves forward: a page shown earlier cannot make rows unread again.
   */
  async markViewed(nowSec: number, upTo?: FeedCursor): Promise<void> {
    const mark = upTo ?? (await newestFeedKey(this.#db))
    if (mark === null) return
    const current = await this.lastViewed()
    if (
      current !== null &&
      (current.slot > mark.slot || (current.slot === mark.slot && current.id >= mark.id))
    )
      return
    await this.#settings.write(LAST_VIEWED_KEY, mark, nowSec)
  }
}
