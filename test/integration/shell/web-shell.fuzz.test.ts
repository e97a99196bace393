import { describe, expect, it } from 'vitest'
import { runWebShellFuzz } from '../../stress/web-shell-fuzz'

// The web shell's fuzz run (issue 12): seeded random and malformed request lines, URLs,
// headers, WebSocket handshakes and frames, and contract messages with mangled inputs,
// against a real `heliograph serve`. The process must be alive and answering at the end.
// `npm run stress -- fuzz` runs many more with a fresh seed; HELIOGRAPH_FUZZ_SEED and
// HELIOGRAPH_FUZZ_CASES replay a reported run here.

const SEED = Number(process.env.HELIOGRAPH_FUZZ_SEED ?? 20_261_123)
const CASES = Number(process.env.HELIOGRAPH_FUZZ_CASES ?? 3_000)

describe('web shell fuzz', () => {
  it(`survives ${CASES} hostile and malformed requests, frames and payloads (seed ${SEED})`, async () => {
    const report = await runWebShellFuzz({ cases: CASES, seed: SEED })
    expect(report.failure).toBeNull()
    expect(report.cases).toBe(CASES)
    expect(report.alive).toBe(true)
    expect(report.answering).toBe(true)
    // Every kind of case ran, and enough of them reached the contract's handlers.
    expect(Object.keys(report.byKind).sort()).toEqual(['channel', 'frames', 'handshake', 'http'])
    expect(report.channelReplies).toBeGreaterThan(CASES / 5)
  }, 300_000)
})
