import { nounFor } from '@shared/domain/count-text'

// The CLI's tables (credits, status): counts with thousands separators, right-aligned;
// text left-aligned; every column as wide as its widest cell, so rows line up whatever
// the sizes.

/** A count with its noun, shown `1,204 calls` / `1 call`: the number right-aligned. */
export interface CountedCell {
  count: number
  singular: string
  plural?: string
}

/** A table cell: a count (right-aligned), a count with its noun, or text (left-aligned). */
export type TableCell = number | CountedCell | string

/** A count as the tables show it: `12,345`. */
export function countCell(count: number): string {
  return count.toLocaleString('en-US')
}

/** A count with its noun, for a table column: `counted(3, 'call')`. */
export function counted(count: number, singular: string, plural?: string): CountedCell {
  return plural === undefined ? { count, singular } : { count, singular, plural }
}

interface Piece {
  text: string
  isRight: boolean
  /** Spaces before it: two between columns, one between a count and its noun. */
  gap: number
}

/**
 * Lines of aligned columns, each prefixed with `indent`; trailing spaces are trimmed. An
 * empty string stands for a cell left blank in any column.
 *
 * @example
 * tableLines([['wallet.history', counted(21, 'call'), counted(2100, 'credit')],
 *             ['das.getAssetBatch', counted(1, 'call'), counted(10, 'credit')]], '  ')
 * // ['  wallet.history     21 calls  2,100 credits',
 * //  '  das.getAssetBatch   1 call      10 credit']
 */
export function tableLines(rows: readonly (readonly TableCell[])[], indent = ''): string[] {
  const columns = Math.max(0, ...rows.map((row) => row.length))
  const isCounted = Array.from({ length: columns }, (_, c) =>
    rows.some((row) => typeof row[c] === 'object'),
  )
  const isNumeric = Array.from({ length: columns }, (_, c) =>
    rows.every((row) => row[c] === undefined || row[c] === '' || typeof row[c] !== 'string'),
  )
  const piecesOf = (row: readonly TableCell[]): Piece[] =>
    Array.from({ length: columns }, (_, c): Piece[] => {
      const cell = row[c] ?? ''
      const gap = c === 0 ? 0 : 2
      if (isCounted[c]) {
        const [number, noun] =
          typeof cell === 'object'
            ? [countCell(cell.count), nounFor(cell.count, cell.singular, cell.plural)]
            : [typeof cell === 'number' ? countCell(cell) : cell, '']
        return [
          { text: number, isRight: true, gap },
          { text: noun, isRight: false, gap: 1 },
        ]
      }
      const text = typeof cell === 'number' ? countCell(cell) : (cell as string)
      return [{ text, isRight: isNumeric[c] ?? false, gap }]
    }).flat()
  const table = rows.map(piecesOf)
  const widths = (table[0] ?? []).map((_, p) =>
    Math.max(...table.map((pieces) => pieces[p]?.text.length ?? 0)),
  )
  return table.map((pieces) =>
    `${indent}${pieces
      .map((piece, p) => {
        const width = widths[p] ?? 0
        const text = piece.isRight ? piece.text.padStart(width) : piece.text.padEnd(width)
        return `${' '.repeat(piece.gap)}${text}`
      })
      .join('')}`.trimEnd(),
  )
}
