import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { SetApiKeyInput, SettingsUpdate } from '@shared/ipc/settings-schemas'
import { describeInputIssues, fieldWords } from '@shared/validation/input-issues'

// Issue 29, finding 5: the API-key field refused the simulator's own short keys, and its
// message began with the schema path "apiKey:". A person reads sentences naming fields in
// words; any non-empty key without whitespace is a key.

function failureOf(schema: z.ZodType, value: unknown): z.ZodError {
  const parsed = schema.safeParse(value)
  if (parsed.success) throw new Error('expected the parse to fail')
  return parsed.error
}

describe('the API key as the person pastes it', () => {
  it('accepts any non-empty key without whitespace, short ones included', () => {
    for (const apiKey of ['k', 'sim-1', 'ab12', 'x'.repeat(64)])
      expect(SetApiKeyInput.safeParse({ apiKey }).success, apiKey).toBe(true)
  })

  it('refuses an empty key in plain words', () => {
    for (const apiKey of ['', '   '])
      expect(describeInputIssues(failureOf(SetApiKeyInput, { apiKey }))).toBe(
        'The API key is empty.',
      )
  })

  it('refuses a key holding a space or line break, without trimming it', () => {
    for (const apiKey of ['abc def', 'abcdef\n', ' abcdef', 'abc\tdef'])
      expect(describeInputIssues(failureOf(SetApiKeyInput, { apiKey })), apiKey).toBe(
        'The API key contains a space or line break; paste only the key.',
      )
  })
})

describe('describeInputIssues', () => {
  it('never starts with a schema path', () => {
    const messages = [
      describeInputIssues(failureOf(SetApiKeyInput, { apiKey: '' })),
      describeInputIssues(failureOf(SettingsUpdate, { dailyBudget: -1 })),
      describeInputIssues(failureOf(SettingsUpdate, { walletRestBaseUrl: 'http://x.example/' })),
      describeInputIssues(failureOf(SettingsUpdate, { dailyBudget: 'ten' })),
    ]
    for (const message of messages) expect(message).not.toMatch(/^[A-Za-z.[\]\d]+:/)
  })

  it("uses the schema's sentence alone, and names the field in words otherwise", () => {
    expect(describeInputIssues(failureOf(SettingsUpdate, { dailyBudget: -1 }))).toBe(
      'Daily budget must be at least 0.',
    )
    expect(describeInputIssues(failureOf(SettingsUpdate, { monthlyBudget: 20_000_000_000 }))).toBe(
      'Monthly budget must be at most 10,000,000,000.',
    )
    expect(describeInputIssues(failureOf(SettingsUpdate, { dailyBudget: 'ten' }))).toBe(
      'Daily budget must be a number.',
    )
    expect(
      describeInputIssues(failureOf(SettingsUpdate, { jsonRpcUrl: 'http://rpc.example.com/' })),
    ).toMatch(/^JSON RPC URL must use https: /)
    expect(describeInputIssues(failureOf(SettingsUpdate, { plan: 'gold' }))).toBe(
      'Plan must be one of "free", "developer", "business", "professional", "custom", "off".',
    )
  })

  it('says what a URL must look like', () => {
    const Hook = z.object({ webhookURL: z.url() })
    expect(describeInputIssues(failureOf(Hook, { webhookURL: 'not a url' }))).toBe(
      'Webhook URL must be a full URL, such as https://example.com/hook.',
    )
  })

  it('reads field names aloud', () => {
    expect(fieldWords(['apiKey'])).toBe('API key')
    expect(fieldWords(['walletRestBaseUrl'])).toBe('Wallet REST base URL')
    expect(fieldWords(['v0RestBaseUrl'])).toBe('v0 REST base URL')
    expect(fieldWords(['customRates', 'das-enhanced'])).toBe('Das enhanced')
    expect(fieldWords(['addresses', 3])).toBe('Addresses #4')
    expect(fieldWords([])).toBe('The input')
  })
})
