import { describe, expect, it } from 'vitest'
import { runKillLoop } from '../../stress/kill-loop'

describe('crash safety: SIGKILL during sync loses and duplicates nothing', () => {
  it('20 kills of `heliograph sync --once` at random moments, then one full run: mirror equals truth', async () => {
    const report = await runKillLoop({ kills: 20 })
    expect(report.integrity).toBe('ok')
    expect(report.mismatches).toEqual([])
    expect(report.kills).toBe(20)
    // Every committed page was served once; only pages in flight at a kill come twice.
    expect(report.pagesFetchedTwice).toBeLessThanOrEqual(report.kills * 5)
  }, 240_000)
})
