import { describe, expect, it } from 'vitest'
import { describeRuleProblem } from '../../../src-shared/domain/alert-rules'
import {
  bellCountText,
  bellName,
  problemInEditorWords,
  triggerInWords,
} from '../../../src-renderer/lib/format/alert-words'
import { emptyRuleDraft, readRuleDraft } from '../../../src-renderer/lib/forms/rule-draft'

// The bell's count and name, the rule editor's reading of its fields, and the rule checks
// in the editor's words (field names, not command-line flags).

describe('the bell', () => {
  it('hides at 0, counts up to 99, then says 99+', () => {
    expect(bellCountText(0)).toBe('')
    expect(bellCountText(3)).toBe('3')
    expect(bellCountText(99)).toBe('99')
    expect(bellCountText(100)).toBe('99+')
    expect(bellName(3)).toBe('Alerts, 3 unread')
    expect(bellName(0)).toBe('Alerts, none unread')
  })
})

describe('rule problems in the editor’s words', () => {
  it('names fields instead of flags', () => {
    const says = (problem: string | null) => problemInEditorWords(problem ?? '')
    expect(says(describeRuleProblem('wakes', {}))).toBe('“wakes” needs Idle days')
    expect(says(describeRuleProblem('balance-below', {}))).toBe(
      '“balance-below” needs Max amount or Max USD',
    )
    expect(says(describeRuleProblem('incoming', { min: 5 }))).toMatch(
      /^“incoming” with Min amount needs Token \(amounts/,
    )
    expect(says(describeRuleProblem('cluster', {}))).toBe(
      '“cluster” needs Wallets and Window (e.g. 1h)',
    )
  })
})

describe('reading the rule editor', () => {
  it('takes only the fields of the chosen trigger', () => {
    const draft = { ...emptyRuleDraft(), trigger: 'failed' as const, minUsd: '100', idleDays: 'x' }
    expect(readRuleDraft(draft)).toEqual({
      rule: {
        trigger: 'failed',
        options: {},
        scope: { wallets: [], tags: [] },
        channels: [],
        cooldownSec: 0,
      },
      problems: [],
    })
  })

  it('reads numbers, durations, types and tags as a person types them', () => {
    const read = readRuleDraft({
      ...emptyRuleDraft(),
      trigger: 'cluster',
      token: ' USDC ',
      count: '3',
      window: '1h',
      scope: 'tags',
      tags: 'treasury, team ,',
      cooldown: '10m',
      name: '  Crowd buys ',
    })
    expect(read.problems).toEqual([])
    expect(read.rule).toEqual({
      trigger: 'cluster',
      options: { token: 'USDC', count: 3, windowSec: 3600 },
      scope: { wallets: [], tags: ['treasury', 'team'] },
      channels: [],
      cooldownSec: 600,
      name: 'Crowd buys',
    })
    const types = readRuleDraft({
      ...emptyRuleDraft(),
      trigger: 'type',
      types: ['SWAP'],
      otherTypes: 'stake, SWAP',
    })
    expect(types.rule?.options).toEqual({ types: ['SWAP', 'STAKE'] })
  })

  it('says every problem in words and gives no rule', () => {
    const read = readRuleDraft({
      ...emptyRuleDraft(),
      trigger: 'outgoing',
      min: 'lots',
      cooldown: 'soon',
      scope: 'wallets',
    })
    expect(read.rule).toBeNull()
    expect(read.problems).toEqual([
      expect.stringMatching(/^Min amount: “lots” is not a number/),
      'Cool-down: “soon” is not a duration. Type e.g. 30m, 1h or 2d.',
      'Choose at least one wallet, or every wallet.',
    ])
    expect(readRuleDraft({ ...emptyRuleDraft(), trigger: 'type' }).problems).toEqual([
      '“type” needs Types',
    ])
  })
})

describe('a stored rule in words', () => {
  it('says what it watches for', () => {
    expect(triggerInWords({ trigger: 'outgoing', options: { token: 'USDC', min: 5000 } })).toBe(
      'Outgoing USDC, at least 5,000',
    )
    expect(triggerInWords({ trigger: 'balance-below', options: { maxUsd: 100 } })).toBe(
      'Holdings below $100.00',
    )
    expect(triggerInWords({ trigger: 'cluster', options: { count: 3, windowSec: 3600 } })).toBe(
      '3 wallets receive one token within 1 h',
    )
  })
})
