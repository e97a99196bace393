import { OPTION_FLAGS, type AlertRuleOptions, type AlertTrigger } from '@shared/domain/alert-rules'
import { countText, formatCount, formatUsd } from '@shared/domain/display-text'
import { durationText } from '@shared/domain/alert-words'
import type { AlertRuleView } from '@shared/ipc/alert-schemas'

export { durationText }

// The Alerts page's words: what each trigger means, a stored rule read aloud, and the
// rule checks of src-shared/domain/alert-rules said with the editor's field names
// instead of the command line's flags.

/** One line per trigger, shown beside the trigger select. */
export const TRIGGER_EXPLANATIONS: Record<AlertTrigger, string> = {
  activity: 'Any new transaction (optionally only those worth at least some dollars).',
  incoming: 'A transaction brought the wallet a token: any, or one token, at least so much.',
  outgoing: 'A transaction took a token from the wallet: any, or one token, at least so much.',
  'balance-below': 'A holding fell below a threshold (once, when it crosses).',
  'balance-above': 'A holding rose above a threshold (once, when it crosses).',
  'new-token': 'A token the wallet never held before arrived.',
  'nft-in': 'An NFT arrived.',
  'nft-out': 'An NFT left.',
  type: 'A transaction of the chosen types (SWAP, TRANSFER, NFT_SALE, …).',
  failed: 'A transaction of the wallet failed.',
  wakes: 'The first transaction after the wallet was idle for some days.',
  'new-counterparty': 'A transfer with an address this wallet never dealt with before.',
  cluster: 'Several wallets of the scope received the same token within a window.',
  lookalike:
    'A new address that starts and ends like one a watched wallet dealt with before: address poisoning.',
  'value-change':
    'The holdings’ value (or one token’s) moved up or down by a share within a window.',
}

/** The editor's name of each option field (what the CLI calls a flag). */
export const OPTION_LABELS: Record<keyof AlertRuleOptions, string> = {
  token: 'Token',
  min: 'Min amount',
  max: 'Max amount',
  minUsd: 'Min USD',
  maxUsd: 'Max USD',
  types: 'Types',
  idleDays: 'Idle days',
  count: 'Wallets',
  pct: 'Change %',
  windowSec: 'Window',
}

/** The editor's name of each flag that is not an option. */
const FLAG_LABELS: Record<string, string> = {
  '--wallet': 'Wallets',
  '--tag': 'Tags',
  '--notify': 'Channels',
  '--cooldown': 'Cool-down',
  '--name': 'Name',
}

/**
 * A rule problem from `describeRuleProblem` in the editor's words: flags become field names.
 *
 * @example
 * problemInEditorWords('--when wakes needs --idle-days N') // '“wakes” needs Idle days'
 */
export function problemInEditorWords(problem: string): string {
  let text = problem.replace(/--when (\S+) (?=--)/g, '“$1” with ').replace(/--when (\S+)/g, '“$1”')
  // Longer flags first: `--min-usd` must not be read as `--min`.
  const flags = (Object.keys(OPTION_FLAGS) as (keyof AlertRuleOptions)[]).sort(
    (a, b) => OPTION_FLAGS[b].length - OPTION_FLAGS[a].length,
  )
  for (const key of flags) {
    text = text.replace(
      new RegExp(
        `${OPTION_FLAGS[key]}(?: (?:AMOUNT|N|DURATION|MINT\\|SYMBOL|SWAP,NFT_SALE,…))?(?![a-z-])`,
        'g',
      ),
      OPTION_LABELS[key],
    )
  }
  for (const [flag, label] of Object.entries(FLAG_LABELS))
    text = text.replaceAll(new RegExp(`${flag}(?![a-z-])`, 'g'), label)
  return text
}

const atLeast = (o: AlertRuleOptions): string[] => [
  ...(o.min !== undefined ? [`at least ${formatCount(o.min)}`] : []),
  ...(o.minUsd !== undefined ? [`worth at least ${formatUsd(o.minUsd)}`] : []),
]

/**
 * What a rule watches for, as a sentence fragment.
 *
 * @example
 * triggerInWords({ trigger: 'outgoing', options: { token: 'USDC', min: 5000 } })
 * // 'Outgoing USDC, at least 5,000'
 */
export function triggerInWords(rule: Pick<AlertRuleView, 'trigger' | 'options'>): string {
  const o = rule.options
  const join = (head: string, extra: string[]): string => [head, ...extra].join(', ')
  switch (rule.trigger) {
    case 'activity':
      return join('Any new transaction', atLeast(o))
    case 'incoming':
    case 'outgoing': {
      const way = rule.trigger === 'incoming' ? 'Incoming' : 'Outgoing'
      return join(`${way} ${o.token ?? 'token'}`, atLeast(o))
    }
    case 'balance-below':
    case 'balance-above': {
      const below = rule.trigger === 'balance-below'
      const amount = below ? o.max : o.min
      const usd = below ? o.maxUsd : o.minUsd
      const limits = [
        ...(amount !== undefined ? [formatCount(amount)] : []),
        ...(usd !== undefined ? [formatUsd(usd)] : []),
      ]
      return `${o.token ?? 'Holdings'} ${below ? 'below' : 'above'} ${limits.join(' or ')}`
    }
    case 'new-token':
      return 'A token never held before'
    case 'nft-in':
      return 'An NFT arrives'
    case 'nft-out':
      return 'An NFT leaves'
    case 'type':
      return `A transaction of type ${(o.types ?? []).join(', ')}`
    case 'failed':
      return 'A failed transaction'
    case 'wakes':
      return `First transaction after ${countText(o.idleDays ?? 0, 'idle day')}`
    case 'new-counterparty':
      return 'A transfer with a new counterparty'
    case 'cluster':
      return `${formatCount(o.count ?? 0)} wallets receive ${o.token ?? 'one token'} within ${durationText(o.windowSec ?? 0)}`
    case 'lookalike':
      return 'A new address that looks like a known one'
    case 'value-change':
      return `${o.token ?? 'Holdings'} move ${formatCount(o.pct ?? 0)}% or more within ${durationText(o.windowSec ?? 0)}`
  }
}

/** Which wallets a rule covers, in words; `nameOf` gives a wallet's label. */
export function scopeInWords(
  scope: AlertRuleView['scope'],
  nameOf: (address: string) => string,
): string {
  if (scope.wallets.length === 0 && scope.tags.length === 0) return 'Every wallet'
  const parts = [...scope.wallets.map(nameOf), ...scope.tags.map((t) => `tag “${t}”`)]
  return parts.join(', ')
}

/** The bell's count: hidden at 0 (empty text), "99+" above 99. */
export function bellCountText(unread: number): string {
  if (unread <= 0) return ''
  return unread > 99 ? '99+' : String(unread)
}

/** The bell's accessible name: "Alerts, 3 unread" or "Alerts, none unread". */
export function bellName(unread: number): string {
  return unread > 0 ? `Alerts, ${formatCount(unread)} unread` : 'Alerts, none unread'
}
