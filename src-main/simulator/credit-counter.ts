// Credits spent per key, from the shared price table (src-shared/api/prices.ts). A call is
// charged when the service answers it with 2xx, including answers a fault then corrupts on
// the wire; refusals (4xx, 429), injected 5xx and timeouts cost nothing.

interface KeyCredits {
  total: number
  calls: number
  byOperation: Record<string, { calls: number; credits: number }>
}

export class CreditCounter {
  private readonly perKey = new Map<string, KeyCredits>()

  charge(key: string, operation: string, credits: number): void {
    let entry = this.perKey.get(key)
    if (!entry) {
      entry = { total: 0, calls: 0, byOperation: {} }
      this.perKey.set(key, entry)
    }
    entry.total += credits
    entry.calls += 1
    const op = (entry.byOperation[operation] ??= { calls: 0, credits: 0 })
    op.calls += 1
    op.credits += credits
  }

  /** Credits of one key (zeros when it has spent nothing). */
  forKey(key: string): KeyCredits {
    const entry = this.perKey.get(key)
    return entry ? structuredClone(entry) : { total: 0, calls: 0, byOperation: {} }
  }

  snapshot(): Record<string, KeyCredits> {
    return Object.fromEntries([...this.perKey].map(([k, v]) => [k, structuredClone(v)]))
  }

  reset(): void {
    this.perKey.clear()
  }
}
