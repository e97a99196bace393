import { stringify } from 'csv-stringify/sync'
import { describe, expect, it } from 'vitest'
import { CsvChunkWriter, encodeCsv } from '../../../src-main/export/csv-encoder'

// The export's encoder must write exactly what csv-stringify writes in RFC 4180 form: CRLF
// line ends, and every field with a line break quoted (csv-stringify 6.9 leaves a bare LF
// unquoted unless told, and spreadsheets then start a new row there).
const RFC_4180 = { record_delimiter: 'windows', quoted_match: /[\r\n]/ } as const
const AWKWARD = [
  '',
  'plain',
  'a,b',
  'a;b',
  'a\tb',
  'say "hi"',
  '"',
  'line\nbreak',
  'cr\rlf\r\n',
  "'=1+1",
  'Ünïcødé ☀ 財布',
  ' padded ',
  '-1.5',
]

function randomRecords(seed: number, count: number): string[][] {
  let state = seed
  const next = (n: number): number => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state % n
  }
  return Array.from({ length: count }, () =>
    Array.from(
      { length: 1 + next(6) },
      () => AWKWARD[next(AWKWARD.length)]! + (next(3) === 0 ? AWKWARD[next(AWKWARD.length)]! : ''),
    ),
  )
}

describe('encodeCsv equals csv-stringify byte for byte', () => {
  it.each([',', ';', '\t'] as const)('with delimiter %j', (delimiter) => {
    const records = [AWKWARD, ...randomRecords(delimiter.charCodeAt(0), 500)]
    expect(encodeCsv(records, delimiter)).toBe(stringify(records, { delimiter, ...RFC_4180 }))
  })

  it('quotes a field that follows plain ones, and leaves plain records as they are', () => {
    const records = [
      ['plain', '1', '-1.5', 'tail, with comma'],
      ['a', 'b', 'c'],
      ['x', 'say "hi"', 'y', 'line\nbreak'],
      ['only plain', ''],
    ]
    for (const delimiter of [',', ';', '\t'] as const)
      expect(encodeCsv(records, delimiter)).toBe(stringify(records, { delimiter, ...RFC_4180 }))
  })

  it('writes nothing for no records', () => {
    expect(encodeCsv([], ',')).toBe('')
  })
})

describe('CsvChunkWriter across chunk ends', () => {
  it.each([16, 64, 1024])(
    'writes the same bytes in %i-byte chunks, fields longer than a chunk included',
    (chunkBytes) => {
      const long = `${'Ünïcødé ☀ 財布, "quoted" '.repeat(20)}\r\nend`
      const records = [...randomRecords(chunkBytes, 300), [long, 'x'], ['y', long], [long]]
      const chunks: Buffer[] = []
      const csv = new CsvChunkWriter(',', chunkBytes, (bytes) => {
        const chunk = Buffer.alloc(bytes)
        chunks.push(chunk)
        return chunk
      })
      for (const record of records) csv.record(record)
      const written = [...csv.take(false), ...csv.take(true)]
      // Every chunk handed on is one the writer was given, never larger.
      for (const c of written) expect(c.length).toBeLessThanOrEqual(chunkBytes)
      expect(written.length).toBeGreaterThan(1)
      expect(Buffer.concat(written).toString('utf8')).toBe(
        stringify(records, { delimiter: ',', ...RFC_4180 }),
      )
    },
  )
})
