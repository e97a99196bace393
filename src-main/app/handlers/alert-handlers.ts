import {
  defaultRuleName,
  type AlertRule,
  type AlertRuleDefinition,
} from '@shared/domain/alert-rules'
import type { AlertRuleView } from '@shared/ipc/alert-schemas'
import { tryRule } from '../../alerts/alert-trial'
import { assertRuleFits } from '../../alerts/rule-check'
import { LOCAL_READER } from '../../db/stores/alert-store'
import { callerAccount } from '../../sync/spender'
import type { HandlerContext } from './handler-context'
import type { HandlerGroup } from './handler-table'

/** A stored rule as the contract shows it. */
export function ruleView(rule: AlertRule): AlertRuleView {
  const { createdAtSec, ...rest } = rule
  return { ...rest, createdAt: new Date(createdAtSec * 1000).toISOString() }
}

/** Handlers of the `alerts:*` channels: rules, the alert history, and trying a rule. */
export function alertHandlers(ctx: HandlerContext) {
  return {
    'alerts:rules': async () => (await ctx.mirror.alertRules.list()).map(ruleView),
    'alerts:add-rule': async (input) => {
      await assertRuleFits(ctx.mirror, ctx.ownMirror.notifyChannels, input)
      return ruleView(await ctx.mirror.alertRules.add(input, ctx.nowSec()))
    },
    'alerts:check-rule': async (input) => {
      await assertRuleFits(ctx.mirror, ctx.ownMirror.notifyChannels, input)
    },
    'alerts:remove-rule': async ({ id }) => {
      await ctx.mirror.alertRules.remove(id)
    },
    'alerts:mute-rule': async ({ id, isMuted }) =>
      ruleView(await ctx.mirror.alertRules.setMuted(id, isMuted)),
    // Read state is each reader's own: a team account's, or the person's at this machine.
    'alerts:history': async (input) => ({
      alerts: await ctx.mirror.alerts.history(input, { reader: reader(), nowSec: ctx.nowSec() }),
      unread: await ctx.mirror.alerts.unreadCount(reader(), ctx.nowSec()),
    }),
    'alerts:mark-read': async ({ upToId }) => {
      await ctx.mirror.alerts.markRead(upToId, reader())
      return { unread: await ctx.mirror.alerts.unreadCount(reader(), ctx.nowSec()) }
    },
    'alerts:try': async ({ rule, days }) => {
      if (!('id' in rule)) await assertRuleFits(ctx.mirror, ctx.ownMirror.notifyChannels, rule)
      const tried: AlertRule =
        'id' in rule
          ? await ctx.mirror.alertRules.get(rule.id)
          : { ...trialRule(rule), id: 0, isMuted: false, createdAtSec: ctx.nowSec() }
      return tryRule(ctx.mirror, tried, days, ctx.nowSec())
    },
  } satisfies HandlerGroup
}

/** Whose read state a request reads: the signed-in account's, else the person's at this machine. */
function reader(): string {
  return callerAccount() ?? LOCAL_READER
}

/** A rule being written, named as it would be saved. */
function trialRule(input: AlertRuleDefinition): Omit<AlertRule, 'id' | 'isMuted' | 'createdAtSec'> {
  return { ...input, name: input.name ?? defaultRuleName(input) }
}
