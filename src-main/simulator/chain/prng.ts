// Seeded, allocation-free randomness: every synthetic fact is a pure function of
// (seed, entity, index), so any item can be recomputed without walking its neighbours.

/** Mixes 32-bit integers into one well-spread 32-bit hash (murmur3 finaliser per part). */
export function hash32(...parts: number[]): number {
  let h = 0x9e3779b9
  for (const part of parts) {
    let k = Math.imul(part | 0, 0xcc9e2d51)
    k = (k << 15) | (k >>> 17)
    k = Math.imul(k, 0x1b873593)
    h ^= k
    h = (h << 13) | (h >>> 19)
    h = (Math.imul(h, 5) + 0xe6546b64) | 0
    // Parts above 2^32 (indices never are, but be safe) contribute their high word too.
    if (part > 0xffffffff) h ^= Math.floor(part / 0x100000000)
  }
  h ^= parts.length
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** Hash of a string (xmur3), for keys and names that feed the generator. */
export function hashString(text: string): number {
  let h = 1779033703 ^ text.length
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 3432918353)
    h = (h << 13) | (h >>> 19)
  }
  h = Math.imul(h ^ (h >>> 16), 2246822507)
  h = Math.imul(h ^ (h >>> 13), 3266489909)
  return (h ^ (h >>> 16)) >>> 0
}

/** A small deterministic generator (mulberry32) seeded from a hash. */
export class Rng {
  private state: number

  constructor(seed: number) {
    this.state = seed >>> 0
  }

  /** Next unsigned 32-bit integer. */
  nextU32(): number {
    this.state = (this.state + 0x6d2b79f5) | 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return (t ^ (t >>> 14)) >>> 0
  }

  /** Uniform float in [0, 1). */
  float(): number {
    return this.nextU32() / 4294967296
  }

  /** Uniform integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.float() * (hi - lo + 1))
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.float() * items.length)]
    if (item === undefined) throw new Error('pick from an empty list')
    return item
  }

  /** Index chosen with the given non-negative weights. */
  weighted(weights: readonly number[]): number {
    const total = weights.reduce((a, b) => a + b, 0)
    let r = this.float() * total
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i] ?? 0
      if (r < 0) return i
    }
    return weights.length - 1
  }
}
