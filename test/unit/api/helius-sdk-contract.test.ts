import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { OPERATION_NAMES } from '@shared/api/operations'
import { EVERY_COVERED_OPERATION_CHECKED, SDK_COVERAGE } from './helius-sdk-contract'

// The compiler checks the contract itself (helius-sdk-contract.ts, compiled by
// `npm run typecheck`); this holds its list to the registry, so an operation added to the
// registry is either checked against the SDK or says why it cannot be.

const root = resolve(import.meta.dirname, '../../..')

describe('the contract with the service SDK', () => {
  it('names every operation of the registry, and no other', () => {
    expect(Object.keys(SDK_COVERAGE).sort()).toEqual([...OPERATION_NAMES].sort())
    expect(EVERY_COVERED_OPERATION_CHECKED).toBe(true)
  })

  it('checks most of them: all but standard RPC (typed by @solana/kit) and deprecated token metadata', () => {
    const unchecked = Object.entries(SDK_COVERAGE)
      .filter(([, sdkType]) => sdkType === null)
      .map(([name]) => name)
    expect(
      unchecked.every((n) => n.startsWith('rpc.') || n === 'tokenMetadata.getTokenMetadata'),
    ).toBe(true)
    expect(unchecked).toHaveLength(6)
  })

  it('is compiled by `npm run typecheck` against the pinned SDK', () => {
    const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>
      devDependencies: Record<string, string>
    }
    // Pinned exactly: a new SDK release changes the contract only when chosen.
    expect(pkg.devDependencies['helius-sdk']).toMatch(/^\d+\.\d+\.\d+$/)
    expect(pkg.scripts.typecheck).toContain('--tsconfig ./tsconfig.json')
    const tsconfig = JSON.parse(readFileSync(resolve(root, 'tsconfig.json'), 'utf8')) as {
      include: string[]
    }
    expect(tsconfig.include).toContain('test/**/*.ts')
  })
})
