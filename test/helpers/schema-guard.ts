import { join } from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import ts from 'typescript'

// The typed schema (src-main/db/schema.ts) only describes what the migrations build. Read
// both — the interfaces with the TypeScript compiler, the tables with `pragma table_info`
// on a migrated database — and hold them equal: every table, every column, its
// nullability, whether the database fills it (Generated<…>), and number vs. text.

const SCHEMA_FILE = join(import.meta.dirname, '../../src-main/db/schema.ts')

/** A column as the TypeScript interface declares it. */
interface TypedColumn {
  isNullable: boolean
  isGenerated: boolean
  kind: 'number' | 'string'
}

/** Table → column → declaration, as src-main/db/schema.ts types them. */
export type TypedSchema = Map<string, Map<string, TypedColumn>>

/** Reads the Database interface of src-main/db/schema.ts with the TypeScript compiler. */
export function readTypedSchema(): TypedSchema {
  const program = ts.createProgram([SCHEMA_FILE], { strict: true, noEmit: true })
  const source = program.getSourceFile(SCHEMA_FILE)
  if (!source) throw new Error(`Cannot read ${SCHEMA_FILE}`)
  const interfaces = new Map<string, ts.InterfaceDeclaration>()
  const aliases = new Map<string, string>()
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node)) interfaces.set(node.name.text, node)
    if (ts.isTypeAliasDeclaration(node)) aliases.set(node.name.text, node.type.getText(source))
  })
  const database = interfaces.get('Database')
  if (!database) throw new Error('schema.ts declares no Database interface')
  const tables: TypedSchema = new Map()
  for (const member of database.members) {
    if (!ts.isPropertySignature(member) || !member.type) continue
    const table = member.name.getText(source)
    const declaration = interfaces.get(member.type.getText(source))
    if (!declaration) throw new Error(`No interface for table ${table}`)
    const columns = new Map<string, TypedColumn>()
    for (const column of declaration.members) {
      if (!ts.isPropertySignature(column) || !column.type) continue
      let text = column.type.getText(source).replace(/\s+/g, ' ')
      const generated = /^Generated<(.+)>$/.exec(text)
      if (generated?.[1]) text = generated[1]
      const parts = text.split('|').map((p) => p.trim())
      // A union of string literals ('wallet' | 'token') is a TEXT column.
      const base = [
        ...new Set(
          parts
            .filter((p) => p !== 'null')
            .map((p) => aliases.get(p) ?? p)
            .map((p) => (/^'[^']*'$/.test(p) ? 'string' : p)),
        ),
      ]
      if (base.length !== 1 || (base[0] !== 'number' && base[0] !== 'string'))
        throw new Error(`${table}.${column.name.getText(source)}: unexpected type ${text}`)
      columns.set(column.name.getText(source), {
        isNullable: parts.includes('null'),
        isGenerated: generated !== null,
        kind: base[0],
      })
    }
    tables.set(table, columns)
  }
  return tables
}

/** The app's tables in a database (SQLite's and the migrator's own left out). */
export function builtTables(sqlite: BetterSqlite3.Database): string[] {
  return (
    sqlite
      .prepare(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%'",
      )
      .all() as { name: string }[]
  ).map((r) => r.name)
}

interface TableInfoRow {
  name: string
  type: string
  notnull: number
  dflt_value: string | null
  pk: number
}

/** Every way the columns of `sqlite` differ from `typed`, one line each; empty when they agree. */
export function columnMismatches(sqlite: BetterSqlite3.Database, typed: TypedSchema): string[] {
  const sqlOf = (table: string): string =>
    (sqlite.prepare('select sql from sqlite_master where name = ?').get(table) as { sql: string })
      .sql
  const mismatches: string[] = []
  for (const [table, columns] of typed) {
    const info = sqlite.pragma(`table_info(${table})`) as TableInfoRow[]
    const built = new Map(info.map((c) => [c.name, c]))
    for (const name of new Set([...columns.keys(), ...built.keys()])) {
      const column = columns.get(name)
      const row = built.get(name)
      if (!column) mismatches.push(`${table}.${name}: in the database, not in schema.ts`)
      if (!row) mismatches.push(`${table}.${name}: in schema.ts, not in the database`)
      if (!column || !row) continue
      // An AUTOINCREMENT key is numbered by the database (a key that names a parent row,
      // such as wallet_id, is always given by the app).
      const isRowId =
        row.pk === 1 &&
        info.filter((c) => c.pk > 0).length === 1 &&
        /autoincrement/i.test(sqlOf(table))
      // Key columns never hold null here (SQLite would allow it in a TEXT key; PostgreSQL not).
      const isNullable = row.notnull === 0 && row.pk === 0
      const isGenerated = row.dflt_value !== null || isRowId
      const kind = /int|real|num/i.test(row.type) ? 'number' : 'string'
      if (column.isNullable !== isNullable)
        mismatches.push(
          `${table}.${name}: nullable ${column.isNullable} in schema.ts, ${isNullable} in the database`,
        )
      if (column.isGenerated !== isGenerated)
        mismatches.push(
          `${table}.${name}: Generated ${column.isGenerated} in schema.ts, has a default ${isGenerated} in the database`,
        )
      if (column.kind !== kind)
        mismatches.push(
          `${table}.${name}: ${column.kind} in schema.ts, ${row.type} in the database`,
        )
    }
  }
  return mismatches
}
