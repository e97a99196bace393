import type BetterSqlite3 from 'better-sqlite3'

/**
 * Rows per statement, largest first: any count is written by a few statements of these
 * sizes (265 rows: four of 64, two of 4, one of 1), and only four statements are compiled.
 * 64 rows of 10 columns bind 640 values, far under SQLite's limit of 32,766.
 */
const ROWS_PER_STATEMENT = [64, 16, 4, 1] as const

/**
 * Inserts many rows of one table with multi-row `values` lists and positional parameters.
 * Per row, one statement step with named parameters costs about twice the time of its
 * share of a 64-row statement: binding by name looks each column up on the row object.
 *
 * @example
 * const insert = new MultiRowInsert(sqlite, 'balance_changes', ['transaction_id', 'mint'])
 * insert.run([{ transaction_id: 7, mint: 'So1…' }])
 */
export class MultiRowInsert<Column extends string> {
  readonly #columns: readonly Column[]
  readonly #statements: Map<number, BetterSqlite3.Statement>

  constructor(sqlite: BetterSqlite3.Database, table: string, columns: readonly Column[]) {
    this.#columns = columns
    const row = `(${columns.map(() => '?').join(', ')})`
    this.#statements = new Map(
      ROWS_PER_STATEMENT.map((size) => [
        size,
        sqlite.prepare(
          `insert into ${table} (${columns.join(', ')}) values ${Array(size).fill(row).join(', ')}`,
        ),
      ]),
    )
  }

  /** Inserts `rows` in order; a constraint violation throws, as a single insert would. */
  run(rows: readonly Readonly<Record<Column, unknown>>[]): void {
    let next = 0
    for (const size of ROWS_PER_STATEMENT) {
      const statement = this.#statements.get(size) as BetterSqlite3.Statement
      for (; rows.length - next >= size; next += size) {
        const values: unknown[] = []
        for (let i = next; i < next + size; i++) {
          const row = rows[i] as Readonly<Record<Column, unknown>>
          for (const column of this.#columns) values.push(row[column])
        }
        statement.run(values)
      }
    }
  }
}
