import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { describeIssues, formatIssuePath, summarizeIssues } from '@shared/validation/zod-issues'

/** The zod error of a parse that must fail. */
function failureOf(schema: z.ZodType, value: unknown): z.ZodError {
  const parsed = schema.safeParse(value)
  if (parsed.success) throw new Error('expected the parse to fail')
  return parsed.error
}

const Page = z.object({
  data: z.array(
    z.object({
      signature: z.string(),
      balanceChanges: z.array(z.object({ amount: z.number() })),
    }),
  ),
  meta: z.record(z.string(), z.number()),
})

describe('formatIssuePath', () => {
  it('names nested fields with dots and array entries with brackets', () => {
    expect(formatIssuePath(['data', 3, 'balanceChanges', 0, 'amount'])).toBe(
      'data[3].balanceChanges[0].amount',
    )
  })

  it('quotes keys that are not identifiers and calls the empty path (root)', () => {
    expect(formatIssuePath(['meta', 'token-account', 'x y'])).toBe('meta["token-account"]["x y"]')
    expect(formatIssuePath([])).toBe('(root)')
  })

  it('continues a prefix, as the result of a JSON-RPC answer', () => {
    expect(formatIssuePath([0, 'slot'], 'result')).toBe('result[0].slot')
    expect(formatIssuePath(['limit'], 'params')).toBe('params.limit')
    expect(formatIssuePath([], 'result')).toBe('result')
  })
})

describe('summarizeIssues', () => {
  it('gives each issue its nested path and zod message', () => {
    const error = failureOf(Page, {
      data: [{ signature: 's', balanceChanges: [{ amount: 1 }, { amount: 'ten' }] }],
      meta: { 'fee-payer': 'x' },
    })
    const issues = summarizeIssues(error)
    expect(issues.map((i) => i.path)).toEqual([
      'data[0].balanceChanges[1].amount',
      'meta["fee-payer"]',
    ])
    expect(issues[0]?.message).toMatch(/expected number, received string/)
    expect(issues[1]?.message).toMatch(/expected number, received string/)
  })

  it('puts the prefix before every path', () => {
    const error = failureOf(Page, { data: [{ signature: 1, balanceChanges: [] }], meta: {} })
    expect(summarizeIssues(error, 'result').map((i) => i.path)).toEqual([
      'result.data[0].signature',
    ])
  })

  it('keeps the first five issues and cuts long messages', () => {
    const many = failureOf(z.array(z.number()), ['a', 'b', 'c', 'd', 'e', 'f', 'g'])
    expect(summarizeIssues(many).map((i) => i.path)).toEqual(['[0]', '[1]', '[2]', '[3]', '[4]'])

    const long = failureOf(
      z.string().refine(() => false, 'x'.repeat(500)),
      'value',
    )
    const [only] = summarizeIssues(long)
    expect(only?.path).toBe('(root)')
    expect(only?.message).toBe(`${'x'.repeat(200)}…`)
  })
})

describe('describeIssues', () => {
  it('names each field before its message, fragments joined by semicolons', () => {
    const Query = z.object({ limit: z.number().max(100), cursor: z.string() })
    expect(describeIssues(failureOf(Query, { limit: 101, cursor: 7 }))).toBe(
      'limit: Too big: expected number to be <=100; cursor: Invalid input: expected string, received number',
    )
  })

  it('names nested fields after the prefix', () => {
    const Params = z.tuple([z.string(), z.object({ limit: z.number().min(1) })])
    expect(describeIssues(failureOf(Params, ['addr', { limit: 0 }]), 'params')).toBe(
      'params[1].limit: Too small: expected number to be >=1',
    )
  })

  it('leaves the field out where the message already starts with it, and at the root', () => {
    const Input = z.object({
      label: z.string().max(3, 'Label is longer than 3 characters.'),
      to: z.string().refine(() => false, 'Too early.'),
    })
    // "Too early." starts with the letters "to" but not the word: the field stays.
    expect(describeIssues(failureOf(Input, { label: 'long', to: 'x' }))).toBe(
      'Label is longer than 3 characters. to: Too early.',
    )
    expect(describeIssues(failureOf(z.strictObject({}), { extra: 1 }))).toBe(
      'Unrecognized key: "extra"',
    )
  })
})
