// The one table `npm run bench` ends with: every figure beside its goal, so one run says
// which goals are met. Each benchmark returns its rows; run.ts prints them together.

/** One row of the table. */
export interface BenchFigure {
  /** What was measured, e.g. "100k-transaction ingest, engine ÷ bare fetch loop". */
  figure: string
  /** The goal in words, e.g. "≤ 1.2", or "—" for a figure without one. */
  goal: string
  /** The measured value in words, with its unit. */
  measured: string
  /** Whether the goal is met; null for a figure without a goal. */
  met: boolean | null
}

/**
 * The figures as a Markdown table (what the README's performance section shows).
 *
 * @example
 * benchTable([{ figure: 'export', goal: '< 3 s', measured: '2.41 s', met: true }])
 */
export function benchTable(figures: readonly BenchFigure[]): string {
  const rows = figures.map((f) => [
    f.figure,
    f.goal,
    f.measured,
    f.met === null ? '—' : f.met ? 'met' : 'missed',
  ])
  const header = ['figure', 'goal', 'measured', '']
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]): string =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`
  return [
    line(header),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.map(line),
  ].join('\n')
}
