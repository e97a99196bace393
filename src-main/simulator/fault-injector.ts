import { z } from 'zod'
import { hash32, Rng } from './chain/prng'

// Faults the simulator injects per operation, for testing how clients survive a bad service:
// latency, 5xx, timeouts (no answer), malformed JSON, truncated bodies, schema drift and
// forced 429s. Each fault applies to `count` matching requests or to a `rate` share of them
// (seeded, so a run repeats), or both.

const FAULT_KINDS = [
  'latency',
  'error',
  'timeout',
  'malformed',
  'truncated',
  'drift',
  'rateLimit',
] as const
export type FaultKind = (typeof FAULT_KINDS)[number]

export const FaultSpec = z.strictObject({
  /**
   * Operation the fault applies to: a registry name (`wallet.history`), its short form
   * (`history`, `getAssetsByOwner`), a family (`wallet.*`) or `*` (default).
   */
  target: z.string().min(1).default('*'),
  kind: z.enum(FAULT_KINDS),
  /** Extra delay before answering (kind latency; default 500). */
  latencyMs: z.int().min(0).max(600_000).optional(),
  /** Status of kind error (default 500; a 4xx is an error the client does not retry). */
  status: z.int().min(400).max(599).optional(),
  /** The service's words in the body of kind error (default "Internal server error"). */
  message: z.string().min(1).max(300).optional(),
  /** Shape change of kind drift (default missing). */
  drift: z.enum(['missing', 'wrongType', 'extra']).optional(),
  /** Field to change for drift, a dotted path into the body or JSON-RPC result (default: first field of the first item). */
  field: z.string().min(1).optional(),
  /** Retry-After seconds of kind rateLimit (default 1). */
  retryAfterSec: z.int().min(0).max(3_600).optional(),
  /** How many matching requests it hits before it expires. */
  count: z.int().min(1).optional(),
  /** Share of matching requests it hits, 0–1 (default 1). */
  rate: z.number().min(0).max(1).optional(),
})
export type FaultSpec = z.input<typeof FaultSpec>

export interface ActiveFault extends z.output<typeof FaultSpec> {
  readonly id: number
  hits: number
}

/** Whether a fault target names an operation (`wallet.history`, `history`, `wallet.*`, `*`). */
export function faultTargetMatches(target: string, operation: string): boolean {
  if (target === '*' || target === operation) return true
  const short = operation.split('.')[1]
  if (target === short) return true
  return target.endsWith('.*') && operation.startsWith(target.slice(0, -1))
}

export class FaultInjector {
  private faults: ActiveFault[] = []
  private nextId = 1
  private readonly rng: Rng

  constructor(seed: number) {
    this.rng = new Rng(hash32(seed, 0xfa17))
  }

  add(spec: z.output<typeof FaultSpec>): ActiveFault {
    const fault: ActiveFault = { ...spec, id: this.nextId++, hits: 0 }
    this.faults.push(fault)
    return fault
  }

  list(): ActiveFault[] {
    return this.faults.map((f) => ({ ...f }))
  }

  clear(): void {
    this.faults = []
  }

  /** The faults that hit this request (at most one per kind), consuming their counts. */
  draw(operation: string): Map<FaultKind, ActiveFault> {
    const hits = new Map<FaultKind, ActiveFault>()
    for (const fault of this.faults) {
      if (hits.has(fault.kind) || !faultTargetMatches(fault.target, operation)) continue
      if (fault.rate !== undefined && this.rng.float() >= fault.rate) continue
      fault.hits += 1
      hits.set(fault.kind, { ...fault })
    }
    this.faults = this.faults.filter((f) => f.count === undefined || f.hits < f.count)
    return hits
  }
}

/** Applies schema drift to a JSON value: removes, retypes or adds a field (copy on write). */
export function applyDrift(
  value: unknown,
  mode: 'missing' | 'wrongType' | 'extra',
  field?: string,
): unknown {
  const copy = structuredClone(value) as unknown
  const target = field !== undefined ? locateByPath(copy, field) : locateFirstField(copy)
  if (target === null) return copy
  const { parent, key } = target
  if (mode === 'extra') {
    parent['__simulatorExtraField'] = 'unexpected'
    return copy
  }
  if (mode === 'missing') {
    delete parent[key]
    return copy
  }
  const current = parent[key]
  parent[key] =
    typeof current === 'number'
      ? 'not-a-number'
      : typeof current === 'string'
        ? 12_345
        : typeof current === 'boolean'
          ? 'yes'
          : 42
  return copy
}

type Container = Record<string, unknown>

function isObject(value: unknown): value is Container {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The first field of the first listed item (data[0], items[0], …), else of the body itself. */
function locateFirstField(
  value: unknown,
  isItem = false,
): { parent: Container; key: string } | null {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = locateFirstField(item, true)
      if (found) return found
    }
    return null
  }
  if (!isObject(value)) return null
  if (!isItem) {
    // Descend into the listing (data, items, balances) or the envelope (value, result) so the drift hits an item.
    for (const [key, child] of Object.entries(value)) {
      if (Array.isArray(child) && child.length > 0) {
        const found = locateFirstField(child)
        if (found) return found
      }
      if (isObject(child) && (key === 'value' || key === 'result')) {
        const found = locateFirstField(child)
        if (found) return found
      }
    }
  }
  const first = Object.keys(value)[0]
  return first === undefined ? null : { parent: value, key: first }
}

function locateByPath(value: unknown, path: string): { parent: Container; key: string } | null {
  const parts = path.split('.')
  let current: unknown = value
  for (let i = 0; i < parts.length - 1; i++) {
    const part = parts[i] ?? ''
    if (Array.isArray(current)) current = current[Number(part)]
    else if (isObject(current)) current = current[part]
    else return null
  }
  const last = parts[parts.length - 1] ?? ''
  if (Array.isArray(current)) {
    return { parent: current as unknown as Container, key: last }
  }
  return isObject(current) ? { parent: current, key: last } : null
}
