import { describe, expect, it } from 'vitest'
import type { CliContext } from '../../../src-main/cli/cli-context'
import { withLinesEnded } from '../../../src-main/cli/terminal-output'
import { FastForwardClock } from '../../helpers/virtual-clock'

// Issue 29, finding 8: whatever a run printed last, its output ends on a line break, so
// the next prompt never runs into it ("On the watchlist.$ ").

function collectingContext(): { context: CliContext; out: string[]; err: string[] } {
  const out: string[] = []
  const err: string[] = []
  return {
    out,
    err,
    context: {
      writeOut: (text) => void out.push(text),
      writeErr: (text) => void err.push(text),
      env: {},
      clock: new FastForwardClock(),
      onStopSignal: () => () => {},
      exitCode: undefined,
    },
  }
}

describe('withLinesEnded', () => {
  it('ends a line left open on stdout and on stderr, once', () => {
    const { context, out, err } = collectingContext()
    const output = withLinesEnded(context)
    output.context.writeOut('On the watchlist.')
    output.context.writeErr('Cost: 510 credits')
    output.finish()
    output.finish()
    expect(out.join('')).toBe('On the watchlist.\n')
    expect(err.join('')).toBe('Cost: 510 credits\n')
  })

  it('adds nothing to output that already ends a line, or to no output at all', () => {
    const { context, out, err } = collectingContext()
    const output = withLinesEnded(context)
    output.context.writeOut('a\nb')
    output.context.writeOut('\n')
    output.context.writeOut('')
    output.finish()
    expect(out.join('')).toBe('a\nb\n')
    expect(err).toEqual([])
  })
})
