import {
  defaultRuleName,
  type AlertRule,
  type AlertRuleDefinition,
} from '@shared/domain/alert-rules'
import type { AlertRuleView } from '@shared/ipc/alert-schemas'
import { tryRule } from '../../alerts/alert-trial'
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
    'alerts:add-rule': async (input) =>
      ruleView(await ctx.mirror.alertRules.add(input, ctx.nowSec())),
    'alerts:remove-rule': async ({ id }) => {
      await ctx.mirror.alertRules.remove(id)
    },
    'alerts:mute-rule': async ({ id, isMuted }) =>
      ruleView(await ctx.mirror.alertRules.setMuted(id, isMuted)),
    'alerts:history': async (input) => ({
      alerts: await ctx.mirror.alerts.history(input),
      unread: await ctx.mirror.alerts.unreadCount(),
    }),
    'alerts:mark-read': async ({ upToId }) => {
      await ctx.mirror.alerts.markRead(upToId)
      return { unread: await ctx.mirror.alerts.unreadCount() }
    },
    'alerts:try': async ({ rule, days }) => {
      const tried: AlertRule =
        'id' in rule
          ? await ctx.mirror.alertRules.get(rule.id)
          : { ...trialRule(rule), id: 0, isMuted: false, createdAtSec: ctx.nowSec() }
      return tryRule(ctx.mirror, tried, days, ctx.nowSec())
    },
  } satisfies HandlerGroup
}

/** A rule being written, named as it would be saved. */
function trialRule(input: AlertRuleDefinition): Omit<AlertRule, 'id' | 'isMuted' | 'createdAtSec'> {
  return { ...input, name: input.name ?? defaultRuleName(input) }
}
