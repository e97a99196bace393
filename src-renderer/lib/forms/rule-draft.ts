import {
  AlertRuleInput,
  describeDurationProblem,
  NUMBER_RANGES,
  OPTIONS_OF,
  parseDuration,
  type AlertRuleOptions,
  type AlertTrigger,
} from '@shared/domain/alert-rules'
import { COMMON_TRANSACTION_TYPES } from '@shared/domain/transaction-types'
import { parseTypedNumber } from '@shared/domain/typed-number'
import { OPTION_LABELS, problemInEditorWords } from '../format/alert-words'

// The rule editor's fields as typed, read into the rule `alerts:add-rule` and `alerts:try`
// take, with every problem in words as the person types. Only the options the trigger
// reads are taken, so a field left filled under another trigger never refuses the rule.

/** The transaction types offered as checkboxes (others can be typed). */
export const COMMON_TYPES = COMMON_TRANSACTION_TYPES

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
  pct: string
  /** The cluster's or value change's window as a duration ("1h"). */
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
    pct: '',
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

/** The fields typed as numbers; their ranges are the rule's (the same words as the command line's). */
const isNumberField = (key: keyof AlertRuleOptions): key is keyof typeof NUMBER_RANGES =>
  key in NUMBER_RANGES

function readDuration(text: string, field: string, problems: string[]): number | undefined {
  if (text.trim() === '') return undefined
  const problem = describeDurationProblem(text)
  if (problem !== null) problems.push(`${field}: “${text.trim()}” ${problem}.`)
  return parseDuration(text) ?? undefined
}

function readOptions(draft: RuleDraft, problems: string[]): AlertRuleOptions {
  const options: AlertRuleOptions = {}
  for (const key of fieldsOf(draft.trigger)) {
    if (isNumberField(key)) {
      const read = parseTypedNumber(draft[key], { field: OPTION_LABELS[key], isOptional: true })
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
  // The rule's own checks, as the command line and the core make them, in the editor's words.
  const checked = AlertRuleInput.safeParse(rule)
  if (!checked.success)
    return {
      rule: null,
      problems: [...new Set(checked.error.issues.map((i) => problemInEditorWords(i.message)))],
    }
  return { rule, problems: [] }
}
