import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  HISTORY_TRANSACTION_TYPES,
  HistoryTransactionType,
  WEBHOOK_TRANSACTION_TYPES,
  WebhookTransactionType,
} from '@shared/api/enums'

// The enumerations are committed literals, compared value for value with the interface
// text so none is missed or invented. The text lives beside the project root, in
// ../shared/spec (where CI has it too); without it this test fails rather than skips.
const PROJECT_ROOT = resolve(import.meta.dirname, '../../..')
const SPEC = resolve(PROJECT_ROOT, '../shared/spec/service-interface.md')

function interfaceText(): string {
  if (!existsSync(SPEC))
    throw new Error(`The service interface text is missing: expected it at ${SPEC}.`)
  return readFileSync(SPEC, 'utf8')
}

describe('webhook transaction types', () => {
  it('has 572 distinct values from ANY to WITHDRAW_UNSTAKED_DEPOSITS', () => {
    expect(WEBHOOK_TRANSACTION_TYPES).toHaveLength(572)
    expect(new Set(WEBHOOK_TRANSACTION_TYPES).size).toBe(572)
    expect(WEBHOOK_TRANSACTION_TYPES[0]).toBe('ANY')
    expect(WEBHOOK_TRANSACTION_TYPES.at(-1)).toBe('WITHDRAW_UNSTAKED_DEPOSITS')
    expect(WebhookTransactionType.safeParse('COMPRESSED_NFT_MINT').success).toBe(true)
    expect(WebhookTransactionType.safeParse('any').success).toBe(false)
  })

  it('equals the list in the interface text', () => {
    const text = interfaceText()
    const section = text.split('### 4.5 Webhook transaction types')[1]?.split('\n## ')[0] ?? ''
    const values = section
      .split('\n')
      .slice(1)
      .join(' ')
      .split('|')
      .map((v) => v.trim())
      .filter(Boolean)
    expect([...WEBHOOK_TRANSACTION_TYPES]).toEqual(values)
  })
})

describe('history type filter', () => {
  it('has the 31 listed values', () => {
    expect(HISTORY_TRANSACTION_TYPES).toHaveLength(31)
    expect(new Set(HISTORY_TRANSACTION_TYPES).size).toBe(31)
    expect(HistoryTransactionType.safeParse('EXECUTE_TRANSACTION').success).toBe(true)
    expect(HistoryTransactionType.safeParse('ANY').success).toBe(false)
  })

  it('equals the list in the interface text', () => {
    const line = /^type values: (.+)$/m.exec(interfaceText())?.[1] ?? ''
    expect([...HISTORY_TRANSACTION_TYPES]).toEqual(line.split('|').map((v) => v.trim()))
  })
})
