import {
  AlertRuleInput,
  describeRuleProblem,
  OPTIONS_OF,
  parseDuration,
  type AlertRuleOptions,
  type AlertTrigger,
} from '@shared/domain/alert-rules'
import { parseTypedNumber, type TypedNumberRule } from '@shared/domain/typed-number'
import { describeInputIssues } from '@shared/validation/input-issues'
import { OPTION_LABELS, problemInEditorWords } from '../format/alert-words'

// The rule editor's fields as typed, read into the rule `alerts:add-rule` and `alerts:try`
// take, with every problem in words as the person types. Only the options the trigger
// reads are taken, so a field left filled under another trigger never refuses the rule.

/** The transaction types offered as checkboxes (others can be typed). */
export const COMMON_TYPES = ['SWAP', 'TRANSFER', 'NFT_SALE', 'UNKNOWN'] as const

/** The editor's fields, as typed. */
export interface RuleDraft {
  trigger: AlertTrigger
  token: string
  min: string
  max: string
  minUsd: string
  maxUsd: string
  /** Chosen among {@link COMMON_TYPES}. */
  types: string[]
  /** More types, typed, comma separated. */
  otherTypes: string
  idleDays: string
  count: string
  /** The cluster window as a duration ("1h"). */
  window: string
  scope: 'all' | 'wallets' | 'tags'
  wallets: string[]
  /** Tags, comma separated. */
  tags: string
  channels: string[]
  /** A duration ("10m"); empty for none. */
  cooldown: string
  name: string
}

export function emptyRuleDraft(): RuleDraft {
  return {
    trigger: 'activity',
    token: '',
    min: '',
    max: '',
    minUsd: '',
    maxUsd: '',
    types: [],
    otherTypes: '',
    idleDays: '',
    count: '',
    window: '',
    scope: 'all',
    wallets: [],
    tags: '',
    channels: [],
    cooldown: '',
    name: '',
  }
}

/** The option fields a trigger shows. */
export function fieldsOf(trigger: AlertTrigger): readonly (keyof AlertRuleOptions)[] {
  return OPTIONS_OF[trigger]
}

/** What the draft says: the rule, or the problems that keep it from being one. */
export type DraftReading =
  { rule: AlertRuleInput; problems: [] } | { rule: null; problems: string[] }

const NUMBER_RULES: Partial<Record<keyof AlertRuleOptions, Omit<TypedNumberRule, 'field'>>> = {
  min: { min: 0 },
  max: { min: 0 },
  minUsd: { min: 0 },
  maxUsd: { min: 0 },
  idleDays: { min: 0 },
  count: { isWholeNumber: true, min: 2 },
}

function readDuration(text: string, field: string, problems: string[]): number | undefined {
  if (text.trim() === '') return undefined
  const sec = parseDuration(text)
  if (sec === null)
    problems.push(`${field}: “${text.trim()}” is not a duration. Type e.g. 30m, 1h or 2d.`)
  return sec ?? undefined
}

function readOptions(draft: RuleDraft, problems: string[]): AlertRuleOptions {
  const options: AlertRuleOptions = {}
  for (const key of fieldsOf(draft.trigger)) {
    const numberRule = NUMBER_RULES[key]
    if (numberRule) {
      const read = parseTypedNumber(draft[key as 'min'], {
        ...numberRule,
        field: OPTION_LABELS[key],
        isOptional: true,
      })
      if (!read.ok) problems.push(read.message)
      else if (read.value !== null) (options as Record<string, number>)[key] = read.value
    } else if (key === 'token' && draft.token.trim() !== '') {
      options.token = draft.token.trim()
    } else if (key === 'types') {
      const typed = draft.otherTypes
        .split(/[\s,]+/)
        .filter((t) => t !== '')
        .map((t) => t.toUpperCase())
      const types = [...new Set([...draft.types, ...typed])]
      if (types.length > 0) options.types = types
    } else if (key === 'windowSec') {
      const sec = readDuration(draft.window, OPTION_LABELS.windowSec, problems)
      if (sec !== undefined) options.windowSec = sec
    }
  }
  return options
}

/**
 * Reads the editor's fields into a rule, or says in words what keeps them from one.
 *
 * @example
 * readRuleDraft({ ...emptyRuleDraft(), trigger: 'wakes' }).problems // ['“wakes” needs Idle days']
 */
export function readRuleDraft(draft: RuleDraft): DraftReading {
  const problems: string[] = []
  const options = readOptions(draft, problems)
  const cooldownSec = readDuration(draft.cooldown, 'Cool-down', problems) ?? 0
  const tags = draft.tags
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '')
  if (draft.scope === 'wallets' && draft.wallets.length === 0)
    problems.push('Choose at least one wallet, or every wallet.')
  if (draft.scope === 'tags' && tags.length === 0) problems.push('Type at least one tag.')
  if (problems.length > 0) return { rule: null, problems }
  const problem = describeRuleProblem(draft.trigger, options)
  if (problem !== null) return { rule: null, problems: [problemInEditorWords(problem)] }
  const rule: AlertRuleInput = {
    trigger: draft.trigger,
    options,
    scope: {
      wallets: draft.scope === 'wallets' ? draft.wallets : [],
      tags: draft.scope === 'tags' ? tags : [],
    },
    channels: draft.channels,
    cooldownSec,
    ...(draft.name.trim() !== '' ? { name: draft.name.trim() } : {}),
  }
  const checked = AlertRuleInput.safeParse(rule)
  if (!checked.success) return { rule: null, problems: [describeInputIssues(checked.error)] }
  return { rule, problems: [] }
}
