import { spawn } from 'node:child_process'
import { closeSync, openSync, statSync } from 'node:fs'

// The machine's own limit for an export, measured in the same run as Heliograph's: the
// database's own CSV writer (`sqlite3 -csv`, `psql \copy … csv`) writing the same rows with
// the same cells as the full balance-changes layout (time, wallet, label, signature, slot,
// mint, symbol, amount, raw amount, decimals, direction, fee, fee payer, status, explorer
// link), in the export's order. The cells are computed by SQL, as each tool would be used
// by someone exporting by hand.

/** One reference run: how long the tool took and what it wrote. */
export interface ReferenceExport {
  tool: string
  ms: number
  bytes: number
}

/** The rows in export order: sorted ids first, wide columns joined after (as the export does on SQLite). */
const ORDERED = `with ordered as materialized (
  select bc.id as change_id from balance_changes as bc
  order by bc.block_time_sec asc nulls first, bc.slot, bc.transaction_id, bc.ordinal)`

/** The cells, the same on both engines but the time, whose SQL differs. */
function referenceCells(time: string): string {
  return `${time}, w.address, w.label, t.signature, bc.slot, bc.mint, m.symbol,
  bc.amount_text, bc.amount_raw, bc.decimals,
  case when bc.amount_text like '-%' then 'out' else 'in' end,
  case when t.fee_payer = w.address and bc.ordinal = 0 then t.fee_text else '' end,
  t.fee_payer, case when t.is_failed = 1 then 'failed' else 'ok' end,
  'https://solscan.io/tx/' || t.signature`
}

const JOINS = `inner join transactions as t on t.id = bc.transaction_id
  inner join wallets as w on w.id = bc.wallet_id
  left join mints as m on m.mint = bc.mint`

const SQLITE_SELECT = `${ORDERED}
select ${referenceCells(`strftime('%Y-%m-%dT%H:%M:%SZ', bc.block_time_sec, 'unixepoch')`)}
from ordered as o cross join balance_changes as bc
  ${JOINS}
where bc.id = o.change_id`
// PostgreSQL hashes the joins and sorts the joined rows once (as the export does there).
const POSTGRES_SELECT = `select ${referenceCells(`to_char(to_timestamp(bc.block_time_sec) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`)}
from balance_changes as bc
  ${JOINS}
order by bc.block_time_sec asc nulls first, bc.slot, bc.transaction_id, bc.ordinal`

/**
 * Milliseconds a command takes with `input` on stdin and its stdout to `stdoutPath` (or
 * nowhere); null when the command is not installed.
 */
async function timedTool(
  command: string,
  args: readonly string[],
  input: string,
  stdoutPath: string | null,
): Promise<number | null> {
  const out = stdoutPath === null ? 'ignore' : openSync(stdoutPath, 'w')
  const t0 = performance.now()
  try {
    return await new Promise<number | null>((resolve, reject) => {
      const child = spawn(command, args, { stdio: ['pipe', out, 'pipe'] })
      let stderr = ''
      child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()))
      child.on('error', (error: NodeJS.ErrnoException) =>
        error.code === 'ENOENT' ? resolve(null) : reject(error),
      )
      child.on('close', (code) =>
        code === 0
          ? resolve(performance.now() - t0)
          : reject(new Error(`${command} exited with ${code}: ${stderr.trim()}`)),
      )
      child.stdin?.end(input)
    })
  } finally {
    if (typeof out === 'number') closeSync(out)
  }
}

/**
 * `sqlite3 -csv` writing the full balance-changes export of the mirror at `dbPath` to
 * `outPath`; null when the `sqlite3` shell is not on PATH.
 *
 * @example
 * const ref = await sqliteCliExport('/tmp/bench/heliograph.sqlite', '/tmp/bench/ref.csv')
 * if (ref) console.log(`sqlite3 -csv ${(ref.ms / 1000).toFixed(2)} s`)
 */
export async function sqliteCliExport(
  dbPath: string,
  outPath: string,
): Promise<ReferenceExport | null> {
  const ms = await timedTool(
    'sqlite3',
    ['-csv', '-readonly', dbPath],
    `${SQLITE_SELECT};\n`,
    outPath,
  )
  return ms === null ? null : { tool: 'sqlite3 -csv', ms, bytes: statSync(outPath).size }
}

/**
 * `psql -c "\copy (…) to 'outPath' csv"` against the PostgreSQL mirror at `url`; null when
 * `psql` is not on PATH.
 *
 * @example
 * const ref = await psqlCopyExport(databaseUrl, '/tmp/bench/ref.csv')
 */
export async function psqlCopyExport(
  url: string,
  outPath: string,
): Promise<ReferenceExport | null> {
  const oneLine = POSTGRES_SELECT.replace(/\s+/g, ' ')
  const copy = `\\copy (${oneLine}) to '${outPath.replaceAll("'", "''")}' csv`
  const ms = await timedTool(
    'psql',
    ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', url, '-c', copy],
    '',
    null,
  )
  return ms === null ? null : { tool: 'psql \\copy', ms, bytes: statSync(outPath).size }
}
