import type { Kysely } from 'kysely'
import type { SearchHit } from '@shared/ipc/search-schemas'
import { searchMirror } from '../queries/mirror-search-queries'
import type { Database } from '../schema'

/**
 * The header search over what the mirror holds: labels, the service's names and domains,
 * tokens, and the starts of addresses and signatures. Reads only: free and offline.
 */
export class SearchStore {
  readonly #db: Kysely<Database>
  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  /** Hits for `text`, best first (see searchMirror). */
  find(text: string): Promise<SearchHit[]> {
    return searchMirror(this.#db, text)
  }
}
