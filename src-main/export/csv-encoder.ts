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
    const cells = new Array<string>(record.length)
    for (let i = 0; i < record.length; i++) {
      const cell = record[i] as string
      cells[i] = needsQuotes.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell
    }
    // Array joins build flat strings; appending cell by cell builds deep ropes that cost
    // more to flatten when the chunk is encoded for the disk.
    lines[r] = cells.join(delimiter)
  }
  lines[records.length] = ''
  return lines.join(CSV_LINE_END)
}
