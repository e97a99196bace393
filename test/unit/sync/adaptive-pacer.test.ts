import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AdaptivePacer, WINDOW_SLACK_MS } from '../../../src-main/sync/adaptive-pacer'
import { systemClock } from '../../../src-shared/clock'

// The pacer of one endpoint class (ARCHITECTURE, "Sync rules": never exceed the configured
// requests per second, honour Retry-After; issue 5: on 429 halve the rate, recover slowly).
// Fake timers: the clock only moves when the test moves it.

/** The system clock on vitest's fake time (which fakes Date, not performance). */
const FAKE_TIME = { ...systemClock, elapsedMs: () => Date.now() }

describe('adaptive pacer', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  /** Starts `count` waits and records the fake time at which each was let go. */
  function startWaits(
    pacer: AdaptivePacer,
    count: number,
  ): { starts: number[]; done: Promise<unknown> } {
    const starts: number[] = []
    const waits = Array.from({ length: count }, () =>
      pacer.waitForSlot().then(() => starts.push(Date.now())),
    )
    return { starts, done: Promise.all(waits) }
  }

  it('spaces starts (1 s + slack)/rps apart, in call order', async () => {
    const pacer = new AdaptivePacer(10, FAKE_TIME)
    const { starts, done } = startWaits(pacer, 4)
    await vi.runAllTimersAsync()
    await done
    const gap = (1_000 + WINDOW_SLACK_MS) / 10
    expect(starts).toEqual([0, gap, 2 * gap, 3 * gap])
  })

  it('a start its timer let go late does not crowd the next: at most rps starts in any second plus slack', async () => {
    // The pacer's clock runs ahead of the timers while the second start wakes: its timer
    // fired 290 ms late, as on a busy event loop.
    let lateMs = 0
    const now = (): number => Date.now() + lateMs
    const pacer = new AdaptivePacer(2, { ...systemClock, elapsedMs: now })
    const starts: number[] = []
    const waits = Array.from({ length: 5 }, () =>
      pacer.waitForSlot().then(() => starts.push(now())),
    )
    await vi.advanceTimersByTimeAsync(0)
    lateMs = 290
    await vi.advanceTimersByTimeAsync(510)
    lateMs = 0
    await vi.runAllTimersAsync()
    await Promise.all(waits)
    expect(starts[1]).toBe(800)
    // Every three consecutive starts span more than a second plus slack, so no
    // one-second window of the service can hold three.
    for (let k = 0; k + 2 < starts.length; k++)
      expect((starts[k + 2] ?? 0) - (starts[k] ?? 0)).toBeGreaterThanOrEqual(
        1_000 + WINDOW_SLACK_MS,
      )
  })

  it('a request slow to come back counts as reaching the service late: the next window starts from its answer less the fastest answer', async () => {
    const pacer = new AdaptivePacer(2, FAKE_TIME)
    const first = await pacer.waitForSlot() // t=0
    await vi.advanceTimersByTimeAsync(5)
    first.finished() // the fastest answer: 5 ms
    const startedAt = (wait: Promise<unknown>): Promise<number> => wait.then(() => Date.now())
    const slow = pacer.waitForSlot() // slot 510
    const third = startedAt(pacer.waitForSlot()) // slot 1020
    const fourth = startedAt(pacer.waitForSlot()) // slot 1530
    await vi.advanceTimersByTimeAsync(505)
    const slowStart = await slow
    expect(Date.now()).toBe(510)
    await vi.advanceTimersByTimeAsync(130)
    slowStart.finished() // answered at 640: it may have reached the service as late as 635
    await vi.runAllTimersAsync()
    expect(await third).toBe(1_020)
    expect(await fourth).toBe(635 + 1_000 + WINDOW_SLACK_MS)
  })

  it('does not pace an unlimited class', async () => {
    const pacer = new AdaptivePacer(Infinity, FAKE_TIME)
    const { starts, done } = startWaits(pacer, 3)
    await vi.runAllTimersAsync()
    await done
    expect(starts).toEqual([0, 0, 0])
  })

  it('halves the rate on each 429, down to one call per 10 s', () => {
    const pacer = new AdaptivePacer(10, FAKE_TIME)
    pacer.onRateLimited()
    expect(pacer.rps).toBe(5)
    pacer.onRateLimited()
    expect(pacer.rps).toBe(2.5)
    for (let i = 0; i < 20; i++) pacer.onRateLimited()
    expect(pacer.rps).toBe(0.1)
  })

  it('halved, it spaces the following starts twice as far apart', async () => {
    const pacer = new AdaptivePacer(10, FAKE_TIME)
    pacer.onRateLimited()
    const { starts, done } = startWaits(pacer, 3)
    await vi.runAllTimersAsync()
    await done
    const gap = (1_000 + WINDOW_SLACK_MS) / 5
    expect(starts).toEqual([0, gap, 2 * gap])
  })

  it('an unlimited class that meets a 429 drops to a finite rate', () => {
    const pacer = new AdaptivePacer(Infinity, FAKE_TIME)
    pacer.onRateLimited()
    expect(pacer.rps).toBe(25)
  })

  it('recovers additively, 5% of the ceiling per success, never above the ceiling', () => {
    const pacer = new AdaptivePacer(10, FAKE_TIME)
    pacer.onRateLimited() // 5
    pacer.onSuccess()
    expect(pacer.rps).toBeCloseTo(5.5)
    for (let i = 0; i < 8; i++) pacer.onSuccess()
    expect(pacer.rps).toBeCloseTo(9.5)
    for (let i = 0; i < 5; i++) pacer.onSuccess()
    expect(pacer.rps).toBe(10)
  })

  it('holds every later start until Retry-After has passed', async () => {
    const pacer = new AdaptivePacer(10, FAKE_TIME)
    await pacer.waitForSlot() // t=0
    pacer.onRateLimited(2_000)
    const { starts, done } = startWaits(pacer, 2)
    await vi.runAllTimersAsync()
    await done
    expect(starts[0]).toBeGreaterThanOrEqual(2_000)
    // …and then at the halved rate (5/s): (1 s + slack)/5 apart.
    expect((starts[1] ?? 0) - (starts[0] ?? 0)).toBe((1_000 + WINDOW_SLACK_MS) / 5)
  })

  it('holds starts that were already waiting for their slot when the 429 came', async () => {
    const pacer = new AdaptivePacer(10, FAKE_TIME)
    // Slots at 0, 100 and 200 are handed out before the 429 arrives at t=50.
    const { starts, done } = startWaits(pacer, 3)
    await vi.advanceTimersByTimeAsync(50)
    expect(starts).toEqual([0])
    pacer.onRateLimited(1_000)
    await vi.runAllTimersAsync()
    await done
    expect(starts[1]).toBeGreaterThanOrEqual(1_050)
    expect(starts[2]).toBeGreaterThanOrEqual(1_050)
  })

  it('lets a waiting start go when its signal aborts', async () => {
    const pacer = new AdaptivePacer(1, FAKE_TIME)
    await pacer.waitForSlot()
    const controller = new AbortController()
    const waiting = pacer.waitForSlot(controller.signal)
    controller.abort(new Error('cancelled'))
    await expect(waiting).rejects.toThrow('cancelled')
  })
})
