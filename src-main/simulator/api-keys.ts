import { encodeEntity } from './chain/entity-ids'
import { hashString } from './chain/prng'

// Which keys the simulator accepts and which of them are on the free plan (identity
// and funded-by need a paid plan). Webhooks record the key owner's address (docs/service.md, Auth).

export const DEFAULT_KEYS = ['demo'] as const

export class ApiKeys {
  private readonly keys: Set<string>
  private readonly freePlan: Set<string>

  constructor(
    private readonly seed: number,
    keys: readonly string[] = DEFAULT_KEYS,
    freePlanKeys: readonly string[] = [],
  ) {
    this.freePlan = new Set(freePlanKeys)
    this.keys = new Set([...keys, ...freePlanKeys])
  }

  isKnown(key: string | undefined): key is string {
    return key !== undefined && this.keys.has(key)
  }

  isFreePlan(key: string): boolean {
    return this.freePlan.has(key)
  }

  /** The account address a key belongs to. */
  ownerAddress(key: string): string {
    return encodeEntity(this.seed, 'keyOwner', hashString(key) & 0xffff, hashString(`owner:${key}`))
  }

  list(): string[] {
    return [...this.keys]
  }
}
