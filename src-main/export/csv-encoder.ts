import type { ExportDelimiter } from '@shared/ipc/export-schemas'

/** RFC 4180 line end. */
export const CSV_LINE_END = '\r\n'

const NEEDS_QUOTES: Record<ExportDelimiter, RegExp> = {
  ',': /[",\r\n]/,
  ';': /[";\r\n]/,
  '\t': /["\t\r\n]/,
}

/**
 * Encodes records as RFC 4180 CSV: fields that hold the delimiter, a quote or a line
 * break are quoted with inner quotes doubled; every record ends in CRLF. Byte for byte
 * what csv-stringify writes with `record_delimiter: 'windows'` and CR/LF quoted (a test
 * holds the two equal), at a seventh of its cost: csv-stringify's per-field casting and
 * option merging took 4.6 s per million 15-field records here, this 0.65 s, and the export
 * must stay under 5 s for a million rows.
 *
 * @example
 * encodeCsv([['a,b', 'say "hi"', '1']], ',') // '"a,b","say ""hi""",1\r\n'
 */
export function encodeCsv(
  records: readonly (readonly string[])[],
  delimiter: ExportDelimiter,
): string {
  const needsQuotes = NEEDS_QUOTES[delimiter]
  const lines = new Array<string>(records.length + 1)
  for (let r = 0; r < records.length; r++) {
    const record = records[r] as readonly string[]
    let i = 0
    while (i < record.length && !needsQuotes.test(record[i] as string)) i++
    // Most records quote nothing: join them as they are, without a copy of their cells.
    // Array joins build flat strings; appending cell by cell builds deep ropes that cost
    // more to flatten when the chunk is encoded for the disk.
    lines[r] = i === record.length ? record.join(delimiter) : quotedLine(record, i, delimiter)
  }
  lines[records.length] = ''
  return lines.join(CSV_LINE_END)
}

/** A record's line with every field that needs it quoted, from the first such field `from`. */
function quotedLine(record: readonly string[], from: number, delimiter: ExportDelimiter): string {
  const needsQuotes = NEEDS_QUOTES[delimiter]
  const cells = record.slice()
  for (let i = from; i < cells.length; i++) {
    const cell = cells[i] as string
    if (needsQuotes.test(cell)) cells[i] = `"${cell.replaceAll('"', '""')}"`
  }
  return cells.join(delimiter)
}
