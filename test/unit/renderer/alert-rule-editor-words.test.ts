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
      'Cool-down: “soon” is not a duration; write e.g. 90s, 15m, 1h or 2d.',
      'Choose at least one wallet, or every wallet.',
    ])
    expect(readRuleDraft({ ...emptyRuleDraft(), trigger: 'type' }).problems).toEqual([
      '“type” needs Types.',
    ])
  })

  it('refuses what the command line refuses, in the same words with field names', () => {
    const problems = (draft: Partial<ReturnType<typeof emptyRuleDraft>>) =>
      readRuleDraft({ ...emptyRuleDraft(), ...draft }).problems
    // A duration needs its unit: "10" could be seconds or minutes.
    expect(problems({ cooldown: '10' })).toEqual([
      'Cool-down: “10” needs a unit: 10s, 10m, 10h or 10d.',
    ])
    expect(problems({ trigger: 'wakes', idleDays: '-3' })).toEqual([
      'Idle days must be a number more than 0 and at most 3,650 (got -3).',
    ])
    expect(problems({ trigger: 'balance-below', token: 'SOL', max: '5', maxUsd: '3' })).toEqual([
      '“balance-below” takes Max amount or Max USD, not both (two thresholds contradict).',
    ])
    expect(problems({ scope: 'tags', tags: 'a b' })).toEqual([
      'Tags “a b”: Tag “a b” contains a space; a tag is one word (use "-" or "_").',
    ])
    expect(problems({ trigger: 'value-change', pct: '10' })).toEqual([
      '“value-change” needs Change % and Window (e.g. 24h).',
    ])
    // The core's refusals (what the mirror holds) read the same once worded for the editor.
    expect(
      problemInEditorWords('--token “NOPE”: no token the mirror has seen is called that.'),
    ).toBe('Token “NOPE”: no token the mirror has seen is called that.')
    expect(problemInEditorWords('--wallet 9xQe: not on the watchlist.')).toBe(
      'Wallets 9xQe: not on the watchlist.',
    )
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
