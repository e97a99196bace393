import type BetterSqlite3 from 'better-sqlite3'

/**
 * Rows per statement, largest first: any count is written by a few statements of these
 * sizes (265 rows: four of 64, two of 4, one of 1), and only four statements are compiled.
 * 64 rows of 10 columns bind 640 values, far under SQLite's limit of 32,766.
 */
const ROWS_PER_STATEMENT = [64, 16, 4, 1] as const

/** What follows the `values` lists: a conflict clause, and the columns to give back. */
export interface MultiRowInsertOptions {
  /** E.g. `on conflict (wallet_id, signature) do nothing`. */
  onConflict?: string
  /** Columns of each inserted row to return, in this order (rows a conflict skipped give none). */
  returning?: readonly string[]
}

/**
 * Inserts many rows of one table with multi-row `values` lists and positional parameters.
 * Per row, one statement step with named parameters costs about twice the time of its
 * share of a 64-row statement: binding by name looks each column up on the row object.
 *
 * @example
 * const insert = new MultiRowInsert(sqlite, 'transactions', ['wallet_id', 'signature'], {
 *   onConflict: 'on conflict (wallet_id, signature) do nothing',
 *   returning: ['id', 'signature'],
 * })
 * const inserted = insert.run([{ wallet_id: 1, signature: '5h…' }]) // [[7, '5h…']]
 */
export class MultiRowInsert<Column extends string> {
  readonly #columns: readonly Column[]
  readonly #isReturning: boolean
  readonly #statements: Map<number, BetterSqlite3.Statement>

  constructor(
    sqlite: BetterSqlite3.Database,
    table: string,
    columns: readonly Column[],
    options: MultiRowInsertOptions = {},
  ) {
    this.#columns = columns
    this.#isReturning = options.returning !== undefined
    const row = `(${columns.map(() => '?').join(', ')})`
    const tail = [
      options.onConflict ?? '',
      options.returning ? `returning ${options.returning.join(', ')}` : '',
    ].join(' ')
    this.#statements = new Map(
      ROWS_PER_STATEMENT.map((size) => {
        const statement = sqlite.prepare(
          `insert into ${table} (${columns.join(', ')}) values ${Array(size).fill(row).join(', ')} ${tail}`,
        )
        return [size, this.#isReturning ? statement.raw() : statement]
      }),
    )
  }

  /**
   * Inserts `rows` in order; a constraint violation throws, as a single insert would.
   * Returns the `returning` columns of the rows inserted (none without `returning`), in no
   * promised order.
   */
  run(rows: readonly Readonly<Record<Column, unknown>>[]): unknown[][] {
    const returned: unknown[][] = []
    let next = 0
    for (const size of ROWS_PER_STATEMENT) {
      const statement = this.#statements.get(size) as BetterSqlite3.Statement
      for (; rows.length - next >= size; next += size) {
        const values: unknown[] = []
        for (let i = next; i < next + size; i++) {
          const row = rows[i] as Readonly<Record<Column, unknown>>
          for (const column of this.#columns) values.push(row[column])
        }
        if (this.#isReturning) returned.push(...(statement.all(values) as unknown[][]))
        else statement.run(values)
      }
    }
    return returned
  }
}
